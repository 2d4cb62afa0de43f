/**
 * A TCP port on 127.0.0.1 where nothing listens: bound to an ephemeral port, then closed, so
 * a connection gets ECONNREFUSED (the "server is down" case of the provider and CLI tests).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A just-freed ephemeral port on 127.0.0.1. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
