/**
 * The durable agent's service endpoint, as its own process (so that the
 * example can kill it): serves `agent` over HTTP/2 on 127.0.0.1 at the port
 * given as the first argument; the payments ledger folder is `PAYMENTS_DIR`.
 */

import { createServer } from "node:http2";
import * as restate from "@restatedev/restate-sdk";
import { agent } from "./agent-service.ts";

const port = Number(process.argv[2]);
createServer(restate.createEndpointHandler({ services: [agent] })).listen(port, "127.0.0.1", () => {
  process.stdout.write(`agent endpoint ready on ${port}\n`);
});
