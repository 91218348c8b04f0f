// JavaScript's common sources, drawn for sample_adapter.py.
//
//   node sources.js SOURCE    reads "T N" lines, answers N draws, one a line
//
// SOURCE is one of:
//   math-random   Math.random() (V8: xorshift128+, seeded per isolate)
//   crypto-53     two 32-bit words of crypto.getRandomValues made one 53-bit
//                 draw, as Ruby's genrand_res53 makes two MT19937 words one
//
// Draws are written as String(x), ECMAScript's shortest round-trip form.
// T > 1 is refused: JavaScript's threads (workers) share no source, each
// isolate has its own Math.random, so the threads cell means nothing here.
'use strict';

const { webcrypto } = require('crypto');
const readline = require('readline');

function crypto53() {
  // getRandomValues fills at most 65,536 bytes a call: 8192 draws.
  const words = new Uint32Array(16384);
  let next = words.length;
  return () => {
    if (next === words.length) {
      webcrypto.getRandomValues(words);
      next = 0;
    }
    const a = words[next] >>> 5;
    const b = words[next + 1] >>> 6;
    next += 2;
    return (a * 67108864 + b) / 9007199254740992;
  };
}

const SOURCES = {
  'math-random': () => Math.random,
  'crypto-53': crypto53,
};

const name = process.argv[2];
if (process.argv.length !== 3 || !(name in SOURCES)) {
  process.stderr.write(`usage: sources.js {${Object.keys(SOURCES).join('|')}}\n`);
  process.exit(2);
}
const draw = SOURCES[name]();

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on('line', (line) => {
  const [threads, count] = line.trim().split(/\s+/).map(Number);
  if (threads !== 1) {
    process.stdout.write('error: JavaScript has no threads that share one source ' +
                         '(each worker is an isolate with its own Math.random)\n');
    return;
  }
  const drawn = new Array(count);
  for (let i = 0; i < count; i++) drawn[i] = String(draw());
  // Writes to a pipe are synchronous in Node on Linux, so the order holds.
  process.stdout.write(drawn.join('\n') + '\n');
});
