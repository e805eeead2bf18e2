'use strict';
// The load for the peer bench: plays many matches of "Draw" (game.js) at once against a
// boardgame.io server, as third-party clients of boardgame.io play them, and prints one
// JSON line with the moves the server acknowledged per second.
//
//     node load.js --url http://127.0.0.1:8000 [--connections 16] [--players 3]
//         [--deck 132] [--warmup 5] [--duration 20] [--client raw|bgio] [--server-pid PID]
//
// Each of the `--connections` slots plays whole matches, one after another: it creates a
// match and joins every seat through the lobby REST API (`/games/draw/create`, then
// `/games/draw/{id}/join` for each seat, which gives the seat's playerCredentials), opens
// one socket.io connection per seat, syncs each, and the current player moves whenever its
// socket receives the state in which it is to move; at game over the sockets close and the
// slot starts the next match. A slot thus has one move in flight at a time, as a wrk
// connection of bench.run has one request in flight.
//
// `--client bgio` plays through `Client` from boardgame.io/client with the `SocketIO`
// multiplayer transport; `--client raw` (the default) sends and reads the same socket.io
// messages the Client does (`sync`, then `update` with the action, the stateID it was
// made from, the match and the player) without the Client's redux store, so that the load
// costs less CPU than the server it measures.
//
// A move counts when the mover's socket receives the server's `update` whose stateID is
// the one it moved from plus one; its latency is from the emit to that update. Only moves
// acknowledged between the warmup's end and `--duration` seconds later count. With
// `--server-pid`, the server's CPU seconds in that window are read from /proc, and its
// main thread's time on a core and waiting for one: whether the load kept it busy.

const fs = require('fs');
const { monitorEventLoopDelay } = require('perf_hooks');
const { io } = require('socket.io-client');
const { Draw } = require('./game');

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const url = option('url', 'http://127.0.0.1:8000').replace(/\/$/, '');
const connections = Number(option('connections', '16'));
const players = Number(option('players', '3'));
const deck = Number(option('deck', '132'));
const warmup = Number(option('warmup', '5'));
const duration = Number(option('duration', '20'));
const clientKind = option('client', 'raw');
const serverPid = option('server-pid', null);
const clockTicks = Number(option('clk-tck', '100'));
// boardgame.io answers a move it refuses with nothing at all: a match that stops moving is
// abandoned after this long and counted, rather than holding its slot for the whole run.
const STALL_MS = 10000;

if (!['raw', 'bgio'].includes(clientKind)) throw new Error(`--client raw|bgio, not ${clientKind}`);

const began = performance.now();
const windowStart = began + warmup * 1000;
const windowEnd = windowStart + duration * 1000;
const inWindow = (t) => t >= windowStart && t < windowEnd;

const latencies = [];
const counts = { moves: 0, matches: 0, lobby_requests: 0, connections_opened: 0 };
const errors = { lobby: 0, stalled: 0, other: 0 };
let stopping = false;

// The server's CPU seconds (every thread), and its main thread's time on a core and time
// ready to run but waiting for one (/proc/PID/task/PID/schedstat): the main thread is the
// one that runs JavaScript, so its busy share is what says whether the server was saturated.
function serverUsage() {
  if (!serverPid) return null;
  try {
    const stat = fs.readFileSync(`/proc/${serverPid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpu = (Number(fields[11]) + Number(fields[12])) / clockTicks;
    const [ran, waited] = fs.readFileSync(`/proc/${serverPid}/task/${serverPid}/schedstat`, 'utf8')
      .split(' ').map((ns) => Number(ns) / 1e9);
    return { cpu, ran, waited };
  } catch {
    return null;
  }
}

async function lobby(path, body) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (inWindow(performance.now())) counts.lobby_requests += 1;
  if (!response.ok) {
    errors.lobby += 1;
    throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  }
  return response.json();
}

// One match from its creation to its game over (or its stall).
async function playMatch() {
  const { matchID } = await lobby('/games/draw/create', {
    numPlayers: players,
    setupData: { deck },
    unlisted: true,
  });
  const credentials = [];
  for (let p = 0; p < players; p++) {
    const joined = await lobby(`/games/draw/${matchID}/join`, {
      playerID: String(p),
      playerName: `p${p}`,
    });
    credentials.push(joined.playerCredentials);
  }

  return new Promise((resolve) => {
    const seats = [];
    let synced = 0;
    let over = 0;
    let done = false;
    let stall = null;

    const finish = (stalled) => {
      if (done) return;
      done = true;
      clearTimeout(stall);
      if (stalled) errors.stalled += 1;
      for (const seat of seats) seat.close();
      resolve();
    };
    const progressed = () => {
      clearTimeout(stall);
      stall = setTimeout(() => finish(true), STALL_MS);
    };
    progressed();

    // Called with the newest state a seat has seen; moves if that seat is to move in it.
    const seen = (seat, state) => {
      if (done || !state) return;
      if (seat.pending && state._stateID === seat.pending.expected) {
        const now = performance.now();
        if (inWindow(now)) {
          counts.moves += 1;
          latencies.push(now - seat.pending.sent);
        }
        seat.pending = null;
        progressed();
      }
      if (state.ctx.gameover !== undefined) {
        // Every seat sees the end, the last mover its acknowledgement, before they go.
        if (!seat.over) {
          seat.over = true;
          over += 1;
        }
        if (over === players) {
          if (inWindow(performance.now())) counts.matches += 1;
          finish(false);
        }
        return;
      }
      if (synced < players || stopping) return;
      if (state.ctx.currentPlayer !== seat.playerID || state._stateID <= seat.movedFrom) return;
      seat.movedFrom = state._stateID;
      seat.pending = { expected: state._stateID + 1, sent: performance.now() };
      seat.move(state);
    };
    const ready = () => {
      synced += 1;
      if (synced === players) for (const seat of seats) seen(seat, seat.state());
    };

    for (let p = 0; p < players; p++) {
      counts.connections_opened += 1;
      seats.push(clientKind === 'bgio'
        ? bgioSeat(matchID, String(p), credentials[p], seen, ready)
        : rawSeat(matchID, String(p), credentials[p], seen, ready));
    }
  });
}

// A seat speaking boardgame.io's socket.io protocol itself: what the SocketIO transport
// sends and reads (boardgame.io/dist/cjs/socketio-*.js), with socket.io's default options.
function rawSeat(matchID, playerID, credentials, seen, ready) {
  const socket = io(`${url}/${Draw.name}`);
  let latest = null;
  const seat = {
    playerID,
    movedFrom: -1,
    pending: null,
    over: false,
    state: () => latest,
    move: (state) => {
      const action = {
        type: 'MAKE_MOVE',
        payload: { type: 'draw', args: [], playerID, credentials },
      };
      socket.emit('update', action, state._stateID, matchID, playerID);
    },
    close: () => socket.close(),
  };
  socket.on('connect', () => socket.emit('sync', matchID, playerID, credentials, players));
  socket.on('sync', (_, syncInfo) => {
    const first = latest === null;
    latest = syncInfo.state;
    if (first) ready();
    else seen(seat, latest);
  });
  socket.on('update', (_, state) => {
    if (latest && state._stateID <= latest._stateID) return;
    latest = state;
    seen(seat, state);
  });
  return seat;
}

// A seat played through boardgame.io's own Client and SocketIO transport.
function bgioSeat(matchID, playerID, credentials, seen, ready) {
  const { Client } = require('boardgame.io/client');
  const { SocketIO } = require('boardgame.io/multiplayer');
  const client = Client({
    game: Draw,
    numPlayers: players,
    multiplayer: SocketIO({ server: url }),
    matchID,
    playerID,
    credentials,
    debug: false,
  });
  let synced = false;
  const seat = {
    playerID,
    movedFrom: -1,
    pending: null,
    over: false,
    state: () => client.getState(),
    move: () => client.moves.draw(),
    close: () => client.stop(),
  };
  client.subscribe((state) => {
    if (!state) return;
    if (!synced) {
      synced = true;
      // Moving from inside the store's listener would dispatch while it notifies.
      queueMicrotask(ready);
      return;
    }
    queueMicrotask(() => seen(seat, client.getState()));
  });
  client.start();
  return seat;
}

async function slot() {
  while (!stopping) {
    try {
      await playMatch();
    } catch (error) {
      if (stopping) return;
      errors.other += 1;
      process.stderr.write(`load: ${error.message}\n`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function percentile(sorted, q) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((q / 100) * sorted.length))];
}

const round = (x, digits = 2) => Number(x.toFixed(digits));

// The load's main thread's time ready to run but waiting for a core: on a shared machine,
// another's work on the load's core delays the load too.
function loadWaited() {
  try {
    return Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[1]) / 1e9;
  } catch {
    return null;
  }
}

// How late the load's own event loop ran what was ready: an update the load read late is
// latency the load added, and a load that is the bottleneck shows it here first.
const loopDelay = monitorEventLoopDelay({ resolution: 5 });

let atStart = null;
setTimeout(() => {
  atStart = {
    server: serverUsage(), load: process.cpuUsage(), loadWaited: loadWaited(), at: performance.now(),
  };
  loopDelay.enable();
}, windowStart - began);

setTimeout(() => {
  stopping = true;
  loopDelay.disable();
  const server = serverUsage();
  const load = process.cpuUsage(atStart.load);
  const seconds = (performance.now() - atStart.at) / 1000;
  latencies.sort((a, b) => a - b);
  const figures = {
    moves_per_s: round(counts.moves / duration, 1),
    p50_ms: round(percentile(latencies, 50)),
    p99_ms: round(percentile(latencies, 99)),
    max_ms: round(latencies.length ? latencies[latencies.length - 1] : 0),
    moves: counts.moves,
    matches: counts.matches,
    lobby_requests: counts.lobby_requests,
    connections: connections,
    players,
    deck,
    client: clientKind,
    duration_s: duration,
    load_cpu_s: round((load.user + load.system) / 1e6),
    load_cpu_share: round((load.user + load.system) / 1e6 / seconds, 3),
    load_waited_s: atStart.loadWaited === null ? null : round(loadWaited() - atStart.loadWaited),
    // Beyond the monitor's own 5 ms timer resolution.
    load_loop_delay_p50_ms: round(Math.max(0, loopDelay.percentile(50) / 1e6 - 5)),
    load_loop_delay_p99_ms: round(Math.max(0, loopDelay.percentile(99) / 1e6 - 5)),
    errors,
  };
  if (server && atStart.server) {
    figures.server_cpu_s = round(server.cpu - atStart.server.cpu);
    figures.server_cpu_share = round((server.cpu - atStart.server.cpu) / seconds, 3);
    figures.server_waited_s = round(server.waited - atStart.server.waited);
    // The main thread running or ready to run, as a share of the window: near 1, the server
    // never sat idle waiting for the load, and what bounded it was the CPU it got; well
    // below 1, the load did not keep it busy.
    figures.server_busy_share = round(
      (server.ran - atStart.server.ran + server.waited - atStart.server.waited) / seconds, 3);
    // What a core of its own would give it, on a machine shared with other work.
    figures.moves_per_server_cpu_s = figures.server_cpu_s > 0
      ? round(counts.moves / figures.server_cpu_s, 1) : null;
    figures.load_cpu_per_server_cpu = figures.server_cpu_s > 0
      ? round(figures.load_cpu_s / figures.server_cpu_s, 3) : null;
  }
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  // Open sockets and timers would keep the loop alive: the figures are out, so go now.
  process.exit(0);
}, windowEnd - began);

for (let i = 0; i < connections; i++) slot();
