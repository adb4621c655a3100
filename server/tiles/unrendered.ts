/**
 * Markup of a drawing that the tiles never show: scripts and event handlers (a tile is a
 * picture: nothing in it runs), `<foreignObject>` (HTML inside SVG: resvg draws SVG only)
 * and images linked rather than embedded (resvg never fetches a URL; a file path it looks
 * up from the server's working directory, not the drawing's folder). The drawing still
 * builds without them; the art report warns, so that `npm run map:check` says what will be
 * missing and where (docs/MAP-ART.md, "Warnings").
 */
import { groupName, isSvgElement, type LayerMatch, type SvgElement } from './svg-doc';

/** Places listed per kind; the rest are counted ("and 12 more"). */
const MAX_PLACES = 3;
/** Characters of a linked image's address quoted. */
const MAX_HREF = 80;

const localName = (name: string) => name.slice(name.indexOf(':') + 1);
const isEventHandler = (attr: string) => /^on[a-z]+$/i.test(attr);
const hrefOf = (el: SvgElement) => el.attrs.get('href') ?? [...el.attrs].find(([name]) => localName(name) === 'href' && name.includes(':'))?.[1];
/** A URL with a scheme (`http:`, `file:`…) or a network path (`//host/…`): never loaded. */
const isUrl = (href: string) => /^[a-z][a-z\d+.-]*:/i.test(href) || href.startsWith('//');

/** 1-based line of an offset of the text. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * Warnings (messages for the drawing) about what a drawing holds that its tiles will not
 * show, one per kind, each naming the elements (tag and id), their line and their layer.
 */
export function unrenderedWarnings(text: string, root: SvgElement, match: LayerMatch): string[] {
  const layerOf = new Map<SvgElement, string>();
  for (const [layer, groups] of match.groups) for (const g of groups) layerOf.set(g, layer);
  const where = (el: SvgElement) => {
    let layer: string | undefined;
    for (let p: SvgElement | null = el; p && !layer; p = p.parent) layer = layerOf.get(p);
    const id = el.attrs.get('id') ?? groupName(el);
    return `<${el.name}${id ? ` id="${id}"` : ''}> at line ${lineAt(text, el.start)} (${layer ? `layer "${layer}"` : 'outside every layer'})`;
  };
  // Each place: the element, and what comes before its description ("onclick of ", "\"x.png\" of ").
  type Place = [prefix: string, el: SvgElement];
  const found = { scripts: [] as Place[], handlers: [] as Place[], foreign: [] as Place[], urls: [] as Place[], files: [] as Place[] };
  const visit = (el: SvgElement) => {
    if (!isSvgElement(el)) return;
    const name = localName(el.name);
    for (const attr of el.attrs.keys()) if (isEventHandler(attr)) found.handlers.push([`${attr} of `, el]);
    if (name === 'script') return void found.scripts.push(['', el]);
    // Its insides are HTML: one line for the whole of it.
    if (name === 'foreignObject') return void found.foreign.push(['', el]);
    if (name === 'image') {
      const href = hrefOf(el)?.trim();
      const shown = href && href.length > MAX_HREF ? `${href.slice(0, MAX_HREF)}…` : href;
      if (href && !href.startsWith('data:')) (isUrl(href) ? found.urls : found.files).push([`"${shown}" of `, el]);
    }
    for (const c of el.children) visit(c);
  };
  visit(root);
  // Only the places listed are described (a line number costs a look through the text).
  const list = (places: Place[]) =>
    places.slice(0, MAX_PLACES).map(([prefix, el]) => prefix + where(el)).join('; ') +
    (places.length > MAX_PLACES ? `; and ${places.length - MAX_PLACES} more` : '');
  const warnings: string[] = [];
  if (found.scripts.length) warnings.push(`<script> is never run (a tile is a picture): ${list(found.scripts)}`);
  if (found.handlers.length) warnings.push(`event handlers (on…) are never run (a tile is a picture): ${list(found.handlers)}`);
  if (found.foreign.length) warnings.push(`<foreignObject> (HTML inside SVG) is not drawn: ${list(found.foreign)}`);
  if (found.urls.length) warnings.push(`linked images are never fetched, so not drawn (embed them as data: URIs): ${list(found.urls)}`);
  if (found.files.length) {
    warnings.push(
      `images linked by file path are looked up from the server's working directory, not the drawing's folder, so are likely not drawn (embed them as data: URIs): ${list(found.files)}`,
    );
  }
  return warnings;
}
