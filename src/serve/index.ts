/** The HTTP gateway's surface for the CLI (`codecite serve`) and the library. */
export { createGateway, DEFAULT_MAX_BODY_BYTES, type Gateway, type GatewayOptions, type Upstream } from "./server.js";
export { GatewayStats, type ModelStats } from "./stats.js";
export { VIRTUAL_MODEL } from "./virtual-model.js";
