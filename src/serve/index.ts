/** The HTTP gateway's surface for the CLI (`codecite serve`) and the library. */
export { createGateway, type Gateway } from "./server.js";
