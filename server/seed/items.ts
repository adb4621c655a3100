/**
 * Sample item cache: Tarkov-style items with Russian names. `kind` tells the marker generator
 * which markers may list the item (keys on key spawns and unlocks, quest items on quest markers).
 */
import type { Item } from '../db/items';
import { createRng } from './prng';

export type ItemKind = 'key' | 'quest' | 'loot';

type Row = [name: string, ruName: string, kind: ItemKind];

const ROWS: Row[] = [
  ['Dorm room 314 marked key', 'Ключ от комнаты 314 общежития с пометкой', 'key'],
  ['Dorm room 206 key', 'Ключ от комнаты 206 общежития', 'key'],
  ['Dorm room 110 key', 'Ключ от комнаты 110 общежития', 'key'],
  ['Factory emergency exit key', 'Ключ от запасного выхода с завода', 'key'],
  ['Gas station storage room key', 'Ключ от подсобки заправки', 'key'],
  ['Machinery key', 'Ключ от механизмов', 'key'],
  ['Unknown key', 'Неизвестный ключ', 'key'],
  ['Portable cabin key', 'Ключ от бытовки', 'key'],
  ['Tarcone Director\'s office key', 'Ключ от кабинета директора «Таркон»', 'key'],
  ['USEC stash key', 'Ключ от схрона USEC', 'key'],
  ['ZB-014 key', 'Ключ от ЗБ-014', 'key'],
  ['Health Resort west wing room 216 key', 'Ключ от комнаты 216 западного крыла санатория', 'key'],
  ['Health Resort east wing room 306 key', 'Ключ от комнаты 306 восточного крыла санатория', 'key'],
  ['Health Resort office key with a blue tape', 'Ключ от офиса санатория с синей изолентой', 'key'],
  ['Weather station safe key', 'Ключ от сейфа метеостанции', 'key'],
  ['Cottage back door key', 'Ключ от задней двери коттеджа', 'key'],
  ['OLI logistics department office key', 'Ключ от офиса отдела логистики OLI', 'key'],
  ['KIBA Arms outer door key', 'Ключ от внешней двери KIBA Arms', 'key'],
  ['Goshan cash register key', 'Ключ от кассы «Гошан»', 'key'],
  ['EMERCOM medical unit key', 'Ключ от медпункта МЧС', 'key'],
  ['RB-BK marked key', 'Ключ РБ-БК с пометкой', 'key'],
  ['RB-VO marked key', 'Ключ РБ-ВО с пометкой', 'key'],
  ['Pumping station front door key', 'Ключ от главной двери насосной станции', 'key'],
  ['TerraGroup Labs keycard (Red)', 'Ключ-карта TerraGroup Labs (красная)', 'key'],
  ['TerraGroup Labs keycard (Blue)', 'Ключ-карта TerraGroup Labs (синяя)', 'key'],
  ['Lab. key (Violet)', 'Ключ-карта лаборатории (фиолетовая)', 'key'],
  ['Concordia apartment 34 room key', 'Ключ от квартиры 34 в «Конкордии»', 'key'],
  ['Chekannaya 15 apartment key', 'Ключ от квартиры на Чеканной 15', 'key'],
  ['Water treatment plant storage room key', 'Ключ от склада очистных сооружений', 'key'],
  ['Rogue USEC barrack key', 'Ключ от казармы USEC-отступников', 'key'],
  ['Secure Flash drive', 'Защищенная флешка', 'quest'],
  ['Package of graphics cards', 'Упаковка видеокарт', 'quest'],
  ['Bronze pocket watch on a chain', 'Бронзовые карманные часы на цепочке', 'quest'],
  ['Golden Zibbo lighter', 'Золотая зажигалка Zibbo', 'quest'],
  ['Folder with intelligence', 'Папка с разведданными', 'quest'],
  ['Secure folder 0022', 'Защищенная папка 0022', 'quest'],
  ['Sealed letter', 'Запечатанное письмо', 'quest'],
  ['Carbon case', 'Карбоновый кейс', 'quest'],
  ['Chemical container', 'Контейнер с химикатами', 'quest'],
  ['Motor Controller', 'Контроллер двигателя', 'quest'],
  ['Single-axis Fiber Optic Gyroscope', 'Одноосный волоконно-оптический гироскоп', 'quest'],
  ['Bottle of Fierce Hatchling moonshine', 'Бутылка самогона «Лютый птенчик»', 'quest'],
  ['Medical record #1', 'Медицинская карта №1', 'quest'],
  ['Jammer', 'Глушилка', 'quest'],
  ['MS2000 Marker', 'Маркер MS2000', 'quest'],
  ['Signal Jammer', 'Подавитель сигнала', 'quest'],
  ['Encrypted message', 'Зашифрованное сообщение', 'quest'],
  ['Military documents #1', 'Военные документы №1', 'quest'],
  ['Bolts', 'Болты', 'loot'],
  ['Screw nuts', 'Гайки', 'loot'],
  ['Gas analyzer', 'Газоанализатор', 'loot'],
  ['Flash drive', 'Флешка', 'loot'],
  ['Graphics card', 'Видеокарта', 'loot'],
  ['Military power filter', 'Военный фильтр питания', 'loot'],
  ['CPU fan', 'Кулер процессора', 'loot'],
  ['Printed circuit board', 'Печатная плата', 'loot'],
  ['Power supply unit', 'Блок питания', 'loot'],
  ['Corrugated hose', 'Гофрированный шланг', 'loot'],
  ['Duct tape', 'Изолента', 'loot'],
  ['Insulating tape', 'Изоляционная лента', 'loot'],
  ['Wires', 'Провода', 'loot'],
  ['Magnet', 'Магнит', 'loot'],
  ['Salewa first aid kit', 'Аптечка Salewa', 'loot'],
  ['IFAK individual first aid kit', 'Индивидуальная аптечка IFAK', 'loot'],
  ['Morphine injector', 'Инъектор с морфином', 'loot'],
  ['Ophthalmoscope', 'Офтальмоскоп', 'loot'],
  ['LEDX Skin Transilluminator', 'Трансиллюминатор LEDX', 'loot'],
  ['Roler Submariner gold wrist watch', 'Золотые наручные часы Roler Submariner', 'loot'],
  ['Gold skull ring', 'Золотое кольцо с черепом', 'loot'],
  ['Bitcoin', 'Физический биткоин', 'loot'],
  ['Pack of sugar', 'Пачка сахара', 'loot'],
  ['Can of condensed milk', 'Банка сгущенки', 'loot'],
  ['Bottle of water (0.6L)', 'Бутылка воды (0,6 л)', 'loot'],
  ['Pack of Tarker dried meat', 'Пачка вяленого мяса «Таркер»', 'loot'],
  ['5.45x39mm BP gs', 'Патрон 5,45x39 мм БП гж', 'loot'],
  ['7.62x39mm PS gzh', 'Патрон 7,62x39 мм ПС гж', 'loot'],
  ['RGD-5 hand grenade', 'Ручная граната РГД-5', 'loot'],
  ['F-1 hand grenade', 'Ручная граната Ф-1', 'loot'],
  ['Zarya stun grenade', 'Светошумовая граната «Заря»', 'loot'],
  ['Tetriz portable game console', 'Портативная игровая консоль «Тетрис»', 'loot'],
  ['Broken GPhone smartphone', 'Сломанный смартфон GPhone', 'loot'],
  ['Spark plug', 'Свеча зажигания', 'loot'],
];

export interface SampleItem extends Item {
  kind: ItemKind;
}

/** The sample items, identical on every call. */
export function sampleItems(): SampleItem[] {
  const rng = createRng('raidmap:items');
  return ROWS.map(([name, ruName, kind]) => ({ uid: rng.hex(24), name, ruName, kind }));
}
