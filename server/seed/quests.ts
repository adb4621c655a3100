/**
 * Sample quest cache: Tarkov-style quests with Russian names, traders, Kappa / Lightkeeper
 * flags and the maps their objectives are on (sample markers link to them by questUid).
 */
import type { MapId } from '../../src/domain/maps';
import type { Quest } from '../db/quests';
import { createRng } from './prng';

export const TRADERS = ['Prapor', 'Therapist', 'Skier', 'Peacekeeper', 'Mechanic', 'Ragman', 'Jaeger', 'Ref', 'Lightkeeper'] as const;

type Trader = (typeof TRADERS)[number];
type Row = [name: string, ruName: string, trader: Trader, kappa: boolean, lightkeeper: boolean, maps: MapId[]];

const ROWS: Row[] = [
  ['Debut', 'Дебют', 'Prapor', true, true, ['customs']],
  ['Checking', 'Проверка на вшивость', 'Prapor', true, true, ['customs']],
  ['Shootout Picnic', 'Стрелок на пикнике', 'Prapor', true, true, ['woods']],
  ['Delivery From the Past', 'Посылка из прошлого', 'Prapor', true, true, ['customs', 'factory']],
  ['BP Depot', 'Склад ГСМ', 'Prapor', true, true, ['customs']],
  ['Bad Rep Evidence', 'Компромат', 'Prapor', true, false, ['customs']],
  ['Shortage', 'Дефицит', 'Therapist', true, true, ['customs', 'woods']],
  ['Sanitary Standards - Part 1', 'Санитарные нормы - Часть 1', 'Therapist', true, true, ['customs']],
  ['Painkiller', 'Болеутоляющее', 'Therapist', true, false, ['shoreline']],
  ['Operation Aquarius - Part 1', 'Операция «Водолей» - Часть 1', 'Therapist', true, true, ['customs']],
  ['Health Care Privacy - Part 1', 'Врачебная тайна - Часть 1', 'Therapist', true, true, ['shoreline']],
  ['Supplier', 'Поставщик', 'Skier', true, false, ['woods']],
  ['Chemical - Part 1', 'Химия - Часть 1', 'Skier', true, true, ['customs']],
  ['Friend From the West - Part 1', 'Друг с запада - Часть 1', 'Skier', true, true, ['customs', 'woods']],
  ['Golden Swag', 'Золотая цепь', 'Skier', true, false, ['customs']],
  ['Setup', 'Подстава', 'Skier', true, true, ['customs']],
  ['Fishing Gear', 'Рыболовные снасти', 'Peacekeeper', true, true, ['shoreline']],
  ['Tigr Safari', 'Сафари на «Тигра»', 'Peacekeeper', true, false, ['woods', 'customs']],
  ['Scrap Metal', 'Металлолом', 'Peacekeeper', true, false, ['shoreline']],
  ['Lend Lease - Part 1', 'Ленд-лиз - Часть 1', 'Peacekeeper', true, true, ['woods', 'shoreline']],
  ['Signal - Part 1', 'Сигнал - Часть 1', 'Mechanic', true, true, ['shoreline']],
  ['Gunsmith - Part 1', 'Оружейник - Часть 1', 'Mechanic', true, false, []],
  ['Farming - Part 1', 'Фермерство - Часть 1', 'Mechanic', true, true, ['factory']],
  ['Scout', 'Разведчик', 'Mechanic', true, false, ['interchange', 'factory']],
  ['Network Provider - Part 1', 'Провайдер - Часть 1', 'Lightkeeper', false, true, ['lighthouse', 'woods']],
  ['Knock-Knock', 'Тук-тук', 'Lightkeeper', false, true, ['lighthouse']],
  ['Missing Informant', 'Пропавший информатор', 'Lightkeeper', false, true, ['streets']],
  ['The Huntsman Path - Secured Perimeter', 'Путь охотника - Охраняемый периметр', 'Jaeger', true, false, ['factory']],
  ['The Survivalist Path - Unprotected but Dangerous', 'Путь выживальщика - Безоружен, но опасен', 'Jaeger', true, false, ['woods']],
  ['Acquaintance', 'Знакомство', 'Jaeger', true, true, ['woods']],
  ['Ambulance', 'Скорая помощь', 'Jaeger', true, false, ['reserve']],
  ['Minibus', 'Маршрутка', 'Jaeger', true, false, ['reserve']],
  ['Big Customer', 'Крупный клиент', 'Ragman', true, true, ['interchange']],
  ['Dressed to Kill', 'Дресс-код', 'Ragman', true, false, []],
  ['Hot Delivery', 'Горячая доставка', 'Ragman', true, true, ['interchange']],
  ['Sew it Good - Part 1', 'Строчка - Часть 1', 'Ragman', true, false, ['interchange']],
  ['The Punisher - Part 1', 'Каратель - Часть 1', 'Prapor', true, false, ['shoreline']],
  ['Pest Control', 'Санобработка', 'Therapist', true, false, ['lab']],
  ['Spa Tour - Part 1', 'Спа-тур - Часть 1', 'Peacekeeper', true, true, ['shoreline']],
  ['Easy Money - Part 1', 'Легкие деньги - Часть 1', 'Ref', false, false, ['streets', 'ground-zero']],
  ['Into the Labyrinth', 'В лабиринт', 'Ref', false, false, ['labyrinth']],
  ['First Steps', 'Первые шаги', 'Prapor', false, false, ['ground-zero']],
  ['Test Drive - Part 1', 'Тест-драйв - Часть 1', 'Mechanic', true, false, ['reserve', 'streets']],
];

export interface SampleQuest extends Quest {
  /** Maps the quest's objectives are on; markers of those maps link to it. */
  maps: MapId[];
}

function wikiUrl(name: string): string {
  return `https://escapefromtarkov.fandom.com/wiki/${encodeURIComponent(name.replace(/ /g, '_'))}`;
}

/** The sample quests, identical on every call (uids are 24 hex digits like the game's ids). */
export function sampleQuests(): SampleQuest[] {
  const rng = createRng('raidmap:quests');
  return ROWS.map(([name, ruName, trader, kappa, lightkeeper, maps]) => ({
    uid: rng.hex(24),
    name,
    ruName,
    trader,
    requiredForKappa: kappa,
    requiredForLightkeeper: lightkeeper,
    wikiUrl: wikiUrl(name),
    maps,
  }));
}
