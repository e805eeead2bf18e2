'use strict';
// boardgame.io's own server for the peer bench: Koa + socket.io, the lobby API on the same
// port, in-memory storage, one Node process.
//
//     node server.js --port 8000
//
// Binds 127.0.0.1 only. Prints one line, `{"ready": PORT, ...}`, once it accepts
// connections; stops on SIGTERM or SIGINT.

const fs = require('fs');
const path = require('path');
const { Server, Origins } = require('boardgame.io/server');
const { Draw } = require('./game');

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const port = Number(option('port', '8000'));
const server = Server({ games: [Draw], origins: [Origins.LOCALHOST] });

// koa-socket-2 made app.listen(port, cb) call the shared HTTP server's listen; it offers
// no host, and a bench must not listen on every interface.
server.app.listen = (listenPort, callback) => server.app.server.listen(listenPort, '127.0.0.1', callback);

// The socket.io server boardgame.io runs is the one koa-socket-2 brings, not its own; some
// packages do not export their package.json, so it is found from the entry point up.
function versionOf(name, from) {
  const options = from ? { paths: [path.dirname(require.resolve(from))] } : undefined;
  let dir = path.dirname(require.resolve(name, options));
  while (dir !== path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const { name: found, version } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
      if (found === name) return version;
    }
    dir = path.dirname(dir);
  }
  return null;
}

server.run(port).then(() => {
  const ready = {
    ready: port,
    boardgame_io: versionOf('boardgame.io'),
    socket_io: versionOf('socket.io', 'koa-socket-2'),
    node: process.version,
  };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
});

for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
