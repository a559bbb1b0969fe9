// `node floor-server.mjs`: the floor of the bench, a bare `node:http` server that answers what the sandbox answers
// without doing any of its work. The JSON to answer comes on stdin (one line); GET answers it with 200, POST reads and
// parses the request body, then answers it with 201. Prints its address, then runs until SIGTERM.
import { createServer } from 'node:http';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const body = Buffer.from(input.trim(), 'utf8');
const headers = { 'Content-Type': 'application/json', 'Content-Length': String(body.length) };

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(200, headers).end(body);
    return;
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(201, headers).end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`floor ready: http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
