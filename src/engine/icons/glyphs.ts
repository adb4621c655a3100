/**
 * White glyphs for the marker icons (SVG fragments, drawn with a white 3.5 px stroke inside a
 * 64×64 badge; `fill="#fff"` where a shape is solid). One per subcategory id.
 */
const solid = 'fill="#ffffff" stroke="none"';
const exit = '<path d="M34 17 H19 V47 H34"/><path d="M27 32 H48 M41 25 L48 32 L41 39"/>';
const person = '<circle cx="32" cy="22" r="6.5"/><path d="M19 47 C19 33 45 33 45 47"/>';

export const GLYPHS: Readonly<Record<string, string>> = {
  Marker: `<path d="M24 48 V16"/><path d="M24 17 H44 L38 24 L44 31 H24 Z" ${solid}/>`,
  'PMC Extraction': exit,
  Transition: '<path d="M17 25 H45 M39 19 L45 25 L39 31"/><path d="M47 40 H19 M25 34 L19 40 L25 46"/>',
  'Scav Extraction': `${exit}<path d="M22 23 V27" />`,
  'Co-Op Extraction': '<circle cx="23" cy="21" r="5"/><circle cx="41" cy="21" r="5"/><path d="M14 47 V39 A9 9 0 0 1 32 39 V47"/><path d="M32 47 V39 A9 9 0 0 1 50 39 V47"/>',
  'Key Spawn': '<circle cx="22" cy="32" r="8"/><path d="M30 32 H49 M43 32 V40 M48 32 V38"/>',
  Unlock: `<rect x="19" y="30" width="26" height="18" rx="3" ${solid}/><path d="M26 30 V22 A8 8 0 0 1 41 19"/>`,
  Lever: `<path d="M17 47 H47"/><path d="M25 47 A7 7 0 0 1 39 47"/><path d="M32 42 L42 20"/><circle cx="43" cy="17" r="4.5" ${solid}/>`,
  Quest: `<path d="M24 23 A8 8 0 1 1 36 30 C33 32 32 34 32 38"/><circle cx="32" cy="46" r="2.8" ${solid}/>`,
  Cache: '<path d="M14 44 C20 33 44 33 50 44 Z"/><path d="M26 15 L38 27 M38 15 L26 27"/>',
  'Ammo Box': '<path d="M18 47 V29 Q22 17 26 29 V47 Z"/><path d="M28 47 V29 Q32 17 36 29 V47 Z"/><path d="M38 47 V29 Q42 17 46 29 V47 Z"/>',
  'Grenade Box': '<ellipse cx="30" cy="38" rx="10" ry="11"/><path d="M26 27 V22 H34 V27"/><path d="M34 23 L43 19"/><circle cx="46" cy="18" r="3"/>',
  'Weapon Box': `<path d="M11 27 H50 V33 H31 L28 43 H21 L23 33 H11 Z" ${solid}/><path d="M41 33 L39 38"/>`,
  'Cash Register': '<path d="M39 22 C36 18 25 18 25 25 C25 32 39 31 39 39 C39 46 27 46 24 42"/><path d="M32 14 V50"/>',
  'PC Block': `<rect x="22" y="14" width="20" height="36" rx="2"/><path d="M27 21 H37 M27 27 H37"/><circle cx="32" cy="41" r="2.8" ${solid}/>`,
  Safe: '<rect x="15" y="16" width="34" height="30" rx="3"/><circle cx="32" cy="31" r="7"/><path d="M32 24 V27 M32 35 V38 M25 31 H28 M36 31 H39"/><path d="M20 46 V50 M44 46 V50"/>',
  Toolbox: '<rect x="13" y="26" width="38" height="21" rx="2"/><path d="M24 26 V19 H40 V26"/><path d="M13 35 H51"/><path d="M29 35 V39 H35 V35"/>',
  'Sports Bag': '<path d="M13 31 Q13 26 19 26 H45 Q51 26 51 31 V42 Q51 47 45 47 H19 Q13 47 13 42 Z"/><path d="M23 26 Q32 13 41 26"/><path d="M19 36 H45"/>',
  Suitcase: '<rect x="15" y="24" width="34" height="23" rx="3"/><path d="M27 24 V18 H37 V24"/><path d="M23 24 V47 M41 24 V47"/>',
  Medbag: '<path d="M14 29 Q14 25 18 25 H46 Q50 25 50 29 V44 Q50 47 46 47 H18 Q14 47 14 44 Z"/><path d="M26 25 V19 H38 V25"/><path d="M32 30 V42 M26 36 H38" stroke-width="5"/>',
  Medcase: '<rect x="12" y="21" width="40" height="26" rx="5"/><path d="M27 21 V17 H37 V21"/><path d="M12 34 H22 M42 34 H52"/><path d="M32 28 V40 M26 34 H38" stroke-width="5"/>',
  'Medical Supply Crate': '<rect x="13" y="15" width="38" height="34" rx="2"/><path d="M13 23 H51"/><path d="M32 28 V44 M24 36 H40" stroke-width="5.5"/>',
  'Wooden Crate': '<rect x="14" y="16" width="36" height="32" rx="2"/><path d="M14 26 H50 M14 38 H50"/><path d="M20 38 L44 26"/>',
  "Shturman's Stash": '<path d="M32 14 L37.3 25.6 L50 27 L40.5 35.6 L43.1 48 L32 41.6 L20.9 48 L23.5 35.6 L14 27 L26.7 25.6 Z"/>',
  'Ration Supply Crate': '<path d="M24 15 V49 M18 15 V25 Q18 30 24 30 Q30 30 30 25 V15"/><path d="M41 49 V15 Q48 19 48 33 H41"/>',
  'Technical Supply Crate': '<circle cx="32" cy="32" r="8"/><path d="M32 13 V20 M32 44 V51 M13 32 H20 M44 32 H51 M18.6 18.6 L23.5 23.5 M40.5 40.5 L45.4 45.4 M18.6 45.4 L23.5 40.5 M40.5 23.5 L45.4 18.6"/>',
  'Dead Body': `<path d="M19 31 A13 13 0 0 1 45 31 V39 H40 V46 H24 V39 H19 Z"/><circle cx="26.5" cy="31" r="3.5" ${solid}/><circle cx="37.5" cy="31" r="3.5" ${solid}/><path d="M29 46 V41 M35 46 V41"/>`,
  Drawer: '<rect x="15" y="15" width="34" height="34" rx="2"/><path d="M15 32 H49"/><path d="M27 23.5 H37 M27 40.5 H37"/>',
  Jacket: '<path d="M24 15 L32 21 L40 15 L51 22 L47 33 L42 31 V49 H22 V31 L17 33 L13 22 Z"/><path d="M32 21 V49"/>',
  'PMC Spawn': person,
  'Scav Spawn': `${person}<path d="M24 17.5 Q32 10 40 17.5" />`,
  'Raider Spawn': '<path d="M15 37 A17 17 0 0 1 49 37 Z"/><path d="M12 37 H52"/><path d="M23 43 H41"/>',
  'Rogue Spawn': '<circle cx="24" cy="29" r="6.5"/><circle cx="40" cy="29" r="6.5"/><path d="M30.5 29 H33.5 M13 27 H17.5 M46.5 27 H51"/><path d="M23 43 Q32 38 41 43"/>',
  'Boss Spawn': `<path d="M15 45 L13 21 L24 31 L32 16 L40 31 L51 21 L49 45 Z" ${solid}/>`,
  'Cultist Spawn': '<path d="M32 13 L45 37 L41 49 H23 L19 37 Z"/><path d="M26 35 Q32 27 38 35"/>',
  'Sniper Scav': `<circle cx="32" cy="32" r="12.5"/><path d="M32 13 V24 M32 40 V51 M13 32 H24 M40 32 H51"/><circle cx="32" cy="32" r="2" ${solid}/>`,
};
