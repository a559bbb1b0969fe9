// `node event-stream-reader.mjs ORIGIN CONTROL_TOKEN`: the dashboard's event stream (`GET /__sandbox/events`), read as it
// comes, in a process of its own, as a browser with the dashboard open reads it beside the sandbox: the bench's load
// generator does not share its event loop with this reader. Prints `open` once the stream answered 200, then, when
// its standard input ends (the bench closes it), the number of events it read, and exits.
import { request } from 'node:http';

const [origin, controlToken] = process.argv.slice(2);
const marker = Buffer.from('\ndata: ');
let events = 0;
// The last bytes of the previous chunk: a marker cut in two between chunks is still counted once.
let carry = Buffer.alloc(0);

const stream = request(`${origin}/__sandbox/events`, { headers: { authorization: `Bearer ${controlToken}` } }, (response) => {
  if (response.statusCode !== 200) {
    console.error(`the event stream answered ${response.statusCode}`);
    process.exit(1);
  }
  console.log('open');
  response.on('data', (chunk) => {
    const text = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length)) events += 1;
    carry = text.subarray(Math.max(0, text.length - (marker.length - 1)));
  });
  response.on('error', () => {});
});
stream.on('error', (error) => {
  console.error(`the event stream failed: ${error.message}`);
  process.exit(1);
});
stream.end();

process.stdin.resume();
process.stdin.on('end', () => {
  stream.destroy();
  // Written to a pipe, `console.log` may still wait when the process exits: exit once it is out.
  process.stdout.write(`events ${events}\n`, () => process.exit(0));
});
