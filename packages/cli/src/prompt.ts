/** Asks for a share password on the terminal without echoing it; without a terminal it is an auth failure. */
import { CliError, EXIT } from "./client";

export async function askPassword(question = "Password: "): Promise<string> {
  const input = process.stdin;
  if (!input.isTTY || !process.stderr.isTTY)
    throw new CliError("This share needs a password: pass --password", EXIT.auth);
  process.stderr.write(question);
  input.setRawMode(true);
  input.resume();
  let typed = "";
  try {
    return await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        for (const ch of chunk.toString("utf8")) {
          if (ch === "\r" || ch === "\n") {
            input.off("data", onData);
            return resolve(typed);
          }
          if (ch === "\u0003") {
            input.off("data", onData);
            return reject(new CliError("Cancelled", EXIT.usage));
          }
          if (ch === "\u007f") typed = typed.slice(0, -1);
          else typed += ch;
        }
      };
      input.on("data", onData);
    });
  } finally {
    input.setRawMode(false);
    input.pause();
    process.stderr.write("\n");
  }
}
