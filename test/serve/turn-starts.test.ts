/** `serve/turn-starts.ts`: chat turns start one per turn of the event loop, in arrival order, with the waiting I/O between them. */
import { createServer, connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { TurnStarts } from "../../src/serve/turn-starts.js";

describe("TurnStarts", () => {
  it("starts turns in arrival order, each in its own turn of the event loop", async () => {
    const starts = new TurnStarts();
    let loopTurns = 0;
    let counting = true;
    const count = (): void => {
      loopTurns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const seen: [string, number][] = [];
    await Promise.all(["a", "b", "c", "d"].map((name) => starts.next().then(() => seen.push([name, loopTurns]))));
    counting = false;
    expect(seen.map(([name]) => name)).toEqual(["a", "b", "c", "d"]);
    // Four different turns of the loop, one after another.
    const turns = seen.map(([, turn]) => turn);
    expect(new Set(turns).size).toBe(4);
    expect(turns.every((t, i) => i === 0 || t === turns[i - 1]! + 1)).toBe(true);
  });

  it("data that came in on a socket is read before the next start: starts do not run back to back", async () => {
    const server = createServer();
    const accepted = new Promise<Socket>((resolve) => server.once("connection", resolve));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const client = connect((server.address() as AddressInfo).port, "127.0.0.1");
    const peer = await accepted;
    const events: string[] = [];
    peer.on("data", (d: Buffer) => events.push(`data ${d.toString()}`));
    const starts = new TurnStarts();
    // A stream's chunk comes in while the first of three new chats starts (the client's write is
    // in the peer's receive buffer when it returns: loopback).
    await Promise.all(
      [1, 2, 3].map((n) =>
        starts.next().then(() => {
          events.push(`start ${n}`);
          if (n === 1) client.write("x");
        }),
      ),
    );
    expect(events).toEqual(["start 1", "data x", "start 2", "start 3"]);
    client.destroy();
    peer.destroy();
    await new Promise((r) => server.close(r));
  });
});
