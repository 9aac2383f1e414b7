import { afterEach, describe, expect, it } from "vitest";
import { keepRunning, restartDelayMs, type Supervised, type SupervisorLog } from "./supervise";

// Real child processes (node -e scripts), real exits, real signals.

interface Entry {
  readonly level: "info" | "warn";
  readonly at: number;
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

function recorder(): SupervisorLog & { readonly entries: Entry[] } {
  const entries: Entry[] = [];
  const push = (level: Entry["level"]) => (fields: object, message: string) => entries.push({ level, at: Date.now(), fields: fields as Record<string, unknown>, message });
  return { entries, info: push("info"), warn: push("warn") };
}

const running: Supervised[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop("SIGKILL")));
});

function node(script: string): { command: string; args: string[] } {
  return { command: process.execPath, args: ["-e", script] };
}

const starts = (log: { entries: Entry[] }) => log.entries.filter((e) => e.message.endsWith("started"));
const exits = (log: { entries: Entry[] }) => log.entries.filter((e) => e.level === "warn");

describe("restartDelayMs", () => {
  it("doubles from the first pause up to the cap", () => {
    const backoff = { initialMs: 100, maxMs: 1_000, resetAfterMs: 60_000 };
    expect([0, 1, 2, 3, 4, 5].map((n) => restartDelayMs(backoff, n))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });
});

describe("keepRunning", () => {
  it("restarts a child that keeps exiting, with pauses that double up to the cap, and logs each exit", async () => {
    const log = recorder();
    const supervised = keepRunning({ name: "crasher", ...node("process.exit(3)") }, { log, backoff: { initialMs: 40, maxMs: 160, resetAfterMs: 60_000 } });
    running.push(supervised);

    await expect.poll(() => starts(log).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(6);
    await supervised.stop();

    const warned = exits(log).slice(0, 5);
    expect(warned.map((e) => e.fields.restartInMs)).toEqual([40, 80, 160, 160, 160]);
    expect(warned.every((e) => e.fields.code === 3 && e.fields.child === "crasher")).toBe(true);
    // Each start came no sooner than the pause announced before it.
    const started = starts(log);
    for (let i = 0; i < 5; i++) expect(started[i + 1]!.at - warned[i]!.at).toBeGreaterThanOrEqual((warned[i]!.fields.restartInMs as number) - 5);
    expect(new Set(started.map((e) => e.fields.pid)).size).toBe(started.length);
    expect(supervised.restarts()).toBe(started.length - 1);
  });

  it("starts the pauses small again after a child stayed up longer than resetAfterMs", async () => {
    const log = recorder();
    const supervised = keepRunning(
      { name: "flaky", ...node("setTimeout(() => process.exit(1), 250)") },
      { log, backoff: { initialMs: 30, maxMs: 10_000, resetAfterMs: 200 } },
    );
    running.push(supervised);

    await expect.poll(() => exits(log).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await supervised.stop();
    expect(exits(log).map((e) => e.fields.restartInMs)).toEqual(exits(log).map(() => 30));
  });

  it("stop() signals the running child, waits for its exit and restarts nothing after it", async () => {
    const log = recorder();
    const supervised = keepRunning({ name: "server", ...node("setInterval(() => {}, 1000)") }, { log });
    running.push(supervised);
    const child = supervised.current()!;
    expect(child.pid).toBeGreaterThan(0);

    await supervised.stop("SIGTERM");

    expect(child.signalCode).toBe("SIGTERM");
    expect(supervised.current()).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(starts(log)).toHaveLength(1);
    expect(exits(log)).toHaveLength(0);
  });

  it("a child killed from outside (an OOM kill, kill -9) is restarted", async () => {
    const log = recorder();
    const supervised = keepRunning({ name: "victim", ...node("setInterval(() => {}, 1000)") }, { log, backoff: { initialMs: 20, maxMs: 20, resetAfterMs: 60_000 } });
    running.push(supervised);
    const first = supervised.current()!;

    first.kill("SIGKILL");

    await expect.poll(() => supervised.current()?.pid ?? first.pid).not.toBe(first.pid);
    expect(exits(log)[0]!.fields).toMatchObject({ child: "victim", signal: "SIGKILL", code: null });
  });

  it("a command that cannot start is retried like a crash, without throwing", async () => {
    const log = recorder();
    const supervised = keepRunning({ name: "missing", command: "/nonexistent/orderops-binary", args: [] }, { log, backoff: { initialMs: 20, maxMs: 40, resetAfterMs: 60_000 } });
    running.push(supervised);

    await expect.poll(() => exits(log).length, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    await supervised.stop();
    expect(exits(log)[0]!.fields.err).toMatchObject({ code: "ENOENT" });
  });
});
