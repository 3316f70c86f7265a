import { ROWS } from "./rows.ts";
import { describeMatrix } from "./suite.ts";

// Every loader (and Hono GET or OPTIONS route) of the authorization matrix, for every caller.
describeMatrix(ROWS.filter((row) => row.kind === "loader"));
