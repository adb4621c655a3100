import { describe, expect, it } from 'vitest';
import { MAP_IDS } from './maps';
import { LOCATION_TO_MAP, isApplicationLog, locationFromLogLine, mapIdFromLocation, mapIdFromLogLine, newestLogFolder } from './game-log';

/** The shape of the game's line (server address, ids shortened). */
const gameCreate = (location: string) =>
  `2025-03-14 19:07:12.345 +01:00|0.16.1.3.35392|Debug|application|TRACE-NetworkGameCreate profileStatus: 'Profileid: 65f2a0c1, Status: Busy, RaidMode: Online, Ip: 10.0.0.1, Port: 17000, Location: ${location}, Sid: 65f2_x, GameMode: deathmatch, shortId: R7XK2P'`;

describe('game location ids', () => {
  it.each([
    ['bigmap', 'customs'],
    ['factory4_day', 'factory'],
    ['factory4_night', 'factory'],
    ['RezervBase', 'reserve'],
    ['laboratory', 'lab'],
    ['TarkovStreets', 'streets'],
    ['Sandbox', 'ground-zero'],
    ['Sandbox_high', 'ground-zero'],
    ['Shoreline', 'shoreline'],
    ['Woods', 'woods'],
    ['Interchange', 'interchange'],
    ['Lighthouse', 'lighthouse'],
    ['Labyrinth', 'labyrinth'],
  ])('%s is %s', (location, map) => {
    expect(mapIdFromLocation(location)).toBe(map);
    expect(mapIdFromLocation(location.toUpperCase())).toBe(map);
  });

  it('map only to maps raidmap has, and every game map has an id', () => {
    for (const map of Object.values(LOCATION_TO_MAP)) expect(MAP_IDS).toContain(map);
    for (const map of MAP_IDS) expect(Object.values(LOCATION_TO_MAP)).toContain(map);
    expect(mapIdFromLocation('hideout')).toBeNull();
    expect(mapIdFromLocation('')).toBeNull();
  });
});

describe('log lines', () => {
  it('find the location of a raid being created', () => {
    expect(locationFromLogLine(gameCreate('bigmap'))).toBe('bigmap');
    expect(mapIdFromLogLine(gameCreate('factory4_night'))).toBe('factory');
    expect(mapIdFromLogLine(gameCreate('Sandbox_high'))).toBe('ground-zero');
  });

  it('ignore every other line, and locations without a map', () => {
    expect(locationFromLogLine('2025-03-14 19:07:12.345|Debug|application|Location: bigmap mentioned elsewhere')).toBeNull();
    expect(locationFromLogLine('TRACE-NetworkGameCreate without one')).toBeNull();
    expect(mapIdFromLogLine(gameCreate('hideout'))).toBeNull();
    expect(mapIdFromLogLine('')).toBeNull();
  });

  it('pick the application logs of the newest log folder', () => {
    expect(isApplicationLog('2025.03.14_19-02-11_0.16.1.3.35392 application_000.log')).toBe(true);
    expect(isApplicationLog('2025.03.14_19-02-11_0.16.1.3.35392 application.log')).toBe(true);
    expect(isApplicationLog('2025.03.14_19-02-11_0.16.1.3.35392 backend_000.log')).toBe(false);
    expect(isApplicationLog('application.txt')).toBe(false);
    expect(newestLogFolder(['log_2025.03.14_19-02-11_0.16.1.3', 'log_2025.03.15_08-00-00_0.16.1.3', 'notes', 'log_2024.12.31_23-59-59_0.15'])).toBe('log_2025.03.15_08-00-00_0.16.1.3');
    expect(newestLogFolder(['notes'])).toBeNull();
  });
});
