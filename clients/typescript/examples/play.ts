import { Client, DangerError, isView, type Game } from "danger-hall-client";

const client = new Client(process.env.DANGER_API ?? "http://127.0.0.1:8000");
const created = await client.games.create({ game: "danger", seats: 2 });
const admin = client.game(created.id, created.admin_token);
const seats: Game[] = [];
for (const name of ["Ann", "Bob"]) seats.push(admin.as((await admin.join({ name })).token ?? undefined));
await admin.start();

// Each seat follows its stream, renders the last view, and sends the first command it may.
async function play(seat: Game): Promise<void> {
  for await (const message of seat.stream({ view: true })) {
    if (!isView(message)) continue; // an event: what happened, for a log or an animation
    if (message.status !== "active") return;
    const command = message.legal[0];
    if (!command) continue;
    try {
      await seat.command(command, { ifMatch: message.seq });
    } catch (error) {
      // 412: the game moved on since this view (a clock ran out); the next view says what now.
      if (!(error instanceof DangerError && error.code === "stale_seq")) throw error;
    }
  }
}
await Promise.all(seats.map(play));

const { view } = await admin.get();
if (view.state?.game === "danger") console.log("totals", view.state.totals, "winners", view.state.winners);
