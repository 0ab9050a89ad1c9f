/** (a) The ceiling: a bare uWebSockets.js hello-world answering the same JSON. */
import uWS from 'uWebSockets.js';

const port = Number(process.argv[2] ?? 0);
const body = JSON.stringify({ status: 'ok', version: '0.1.0', uptimeSeconds: 0 });
uWS
  .App()
  .get('/health', (res) => {
    res.cork(() => {
      res.writeHeader('content-type', 'application/json; charset=utf-8').end(body);
    });
  })
  .listen('127.0.0.1', port, (socket) => {
    if (!socket) process.exit(1);
    process.stdout.write(`listening ${uWS.us_socket_local_port(socket)}\n`);
  });
