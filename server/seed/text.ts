/**
 * English and Russian words for sample marker names and descriptions.
 */
export const SUBCATEGORY_RU: Record<string, string> = {
  Marker: 'Метка',
  'PMC Extraction': 'Выход ЧВК',
  Transition: 'Переход',
  'Scav Extraction': 'Выход Диких',
  'Co-Op Extraction': 'Совместный выход',
  'Key Spawn': 'Ключ',
  Unlock: 'Запертая дверь',
  Lever: 'Рычаг',
  Quest: 'Квест',
  Cache: 'Тайник',
  'Ammo Box': 'Ящик с патронами',
  'Grenade Box': 'Ящик с гранатами',
  'Weapon Box': 'Оружейный ящик',
  'Cash Register': 'Касса',
  'PC Block': 'Системный блок',
  Safe: 'Сейф',
  Toolbox: 'Ящик с инструментами',
  'Sports Bag': 'Спортивная сумка',
  Suitcase: 'Чемодан',
  Medbag: 'Медицинская сумка',
  Medcase: 'Медкейс',
  'Medical Supply Crate': 'Ящик с медикаментами',
  'Wooden Crate': 'Деревянный ящик',
  "Shturman's Stash": 'Заначка Штурмана',
  'Ration Supply Crate': 'Ящик с провизией',
  'Technical Supply Crate': 'Ящик с техническими припасами',
  'Dead Body': 'Тело',
  Drawer: 'Ящик стола',
  Jacket: 'Куртка',
  'PMC Spawn': 'Появление ЧВК',
  'Scav Spawn': 'Появление Диких',
  'Raider Spawn': 'Появление рейдеров',
  'Rogue Spawn': 'Появление отступников',
  'Boss Spawn': 'Появление босса',
  'Cultist Spawn': 'Появление культистов',
  'Sniper Scav': 'Дикий-снайпер',
};

export const PLACES: readonly (readonly [en: string, ru: string])[] = [
  ['Dorms', 'Общежитие'],
  ['Gas Station', 'Заправка'],
  ['Warehouse', 'Склад'],
  ['Checkpoint', 'КПП'],
  ['Old House', 'Старый дом'],
  ['Crane', 'Кран'],
  ['Bunker', 'Бункер'],
  ['Garage', 'Гараж'],
  ['Pier', 'Пирс'],
  ['Water Tower', 'Водонапорная башня'],
  ['Sawmill', 'Лесопилка'],
  ['Office', 'Офис'],
  ['Construction Site', 'Стройка'],
  ['Train Station', 'Ж/д станция'],
  ['Boiler Room', 'Котельная'],
  ['Radio Tower', 'Радиовышка'],
  ['Shoreline Cottage', 'Коттедж'],
  ['Factory Gate', 'Ворота завода'],
  ['Bus Stop', 'Остановка'],
  ['Power Station', 'Электростанция'],
];

export const QUEST_OBJECTIVES: readonly (readonly [en: string, ru: string])[] = [
  ['find the item', 'найти предмет'],
  ['stash the item', 'спрятать предмет'],
  ['mark the vehicle', 'отметить транспорт'],
  ['survey the area', 'осмотреть местность'],
  ['place the beacon', 'установить маяк'],
];

export function levelNameRu(num: number): string {
  if (num === 1) return 'основной уровень';
  if (num > 1) return `${num}-й этаж`;
  return 'подземный уровень';
}
