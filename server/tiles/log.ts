/**
 * Where the tile pipeline's lines go: the server's JSON logger (pino: `app.log`, set by the
 * tiles plugin, so they respect LOG_LEVEL), else the console (`npm run tiles`, map:check,
 * tests). Messages are whole sentences that name the map and, for operators, the file.
 */
export interface TileLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const consoleTileLog: TileLog = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
  error: (message) => console.error(message),
};
