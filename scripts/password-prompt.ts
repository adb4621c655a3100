/**
 * Reading a password for `npm run user`: on a terminal without echo (raw mode, nothing written
 * back, not even stars, as passwd(1) and ssh do) and asked twice to catch a typo nobody could
 * see; from a pipe (scripts, CI) the first line, as given.
 */
import readline from 'node:readline';

export class PromptError extends Error {}

/** The parts of process.stdin a prompt uses (a fake one in tests). */
export interface PromptInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

/** One line typed on a terminal in raw mode, without echo. Ctrl-C / Ctrl-D on an empty line cancel. */
export function readHidden(input: PromptInput, output: NodeJS.WritableStream, prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let typed = '';
    output.write(prompt);
    input.setRawMode?.(true);
    input.setEncoding('utf8');
    input.resume();
    const done = (error?: Error) => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.setRawMode?.(false);
      input.pause();
      // The Enter was not echoed either: end the prompt's line.
      output.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onEnd = () => done(new PromptError('no password given (input ended)'));
    const onData = (chunk: string | Buffer) => {
      // A paste arrives as one chunk: each character is taken in turn; what follows the Enter
      // is left for the next prompt.
      const chars = [...String(chunk)];
      for (const [i, char] of chars.entries()) {
        if (char === '\r' || char === '\n') {
          const rest = chars.slice(i + 1).join('').replace(/^\n/, char === '\r' ? '' : '\n');
          done();
          if (rest) input.unshift(rest);
          return;
        }
        if (char === '\u0003') return done(new PromptError('cancelled'));
        if (char === '\u0004') {
          if (typed === '') return done(new PromptError('cancelled'));
          continue;
        }
        // An arrow or function key: an escape sequence, which a terminal sends as one chunk.
        if (char === '\u001b') return;
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('');
        else if (char === '\u0015') typed = ''; // Ctrl-U: start again
        else if (char >= ' ') typed += char;
        // Other control characters are not part of a password.
      }
    };
    input.on('data', onData);
    input.on('end', onEnd);
  });
}

/** The first line of a non-terminal input (a trailing \r dropped). */
export async function readLine(input: PromptInput): Promise<string> {
  const rl = readline.createInterface({ input, terminal: false });
  try {
    for await (const line of rl) return line.replace(/\r$/, '');
    throw new PromptError('no password given on stdin');
  } finally {
    rl.close();
  }
}

/**
 * A new password: on a terminal asked twice without echo (PromptError when the two differ);
 * otherwise the first line of the input.
 */
export async function readNewPassword(input: PromptInput, output: NodeJS.WritableStream, label = 'password'): Promise<string> {
  if (!input.isTTY) return readLine(input);
  const first = await readHidden(input, output, `${label}: `);
  if (first === '') throw new PromptError('no password given');
  const second = await readHidden(input, output, `${label} again: `);
  if (second !== first) throw new PromptError('the two passwords differ: nothing changed');
  return first;
}
