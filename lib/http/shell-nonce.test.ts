import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nonceOnPrerenderedPages, withNonce } from "./shell-nonce";

describe("withNonce", () => {
  it("puts the nonce on scripts, styles and script preloads, and on nothing else", () => {
    const html = [
      '<link rel="stylesheet" href="/a.css" data-precedence="next"/>',
      '<link rel="preload" as="script" fetchPriority="low" href="/x.js"/>',
      '<script src="/x.js" async=""></script>',
      "<script>self.__next_f.push([1,\"\\u003cscript>alert(1)\\u003c/script>\"])</script>",
      "<style>.a{}</style>",
      '<script nonce="kept">1</script>',
      "<p>a <scripted> word stays</p>",
    ].join("");
    expect(withNonce(html, "N")).toBe(
      [
        '<link rel="stylesheet" href="/a.css" data-precedence="next"/>',
        '<link nonce="N" rel="preload" as="script" fetchPriority="low" href="/x.js"/>',
        '<script nonce="N" src="/x.js" async=""></script>',
        "<script nonce=\"N\">self.__next_f.push([1,\"\\u003cscript>alert(1)\\u003c/script>\"])</script>",
        '<style nonce="N">.a{}</style>',
        '<script nonce="kept">1</script>',
        "<p>a <scripted> word stays</p>",
      ].join(""),
    );
  });
});

// A stand-in for Next behind the listener: a prerendered page is sent whole with its validator and
// length (send-payload.ts), a page rendered per request streams with its nonce already on.
describe("nonceOnPrerenderedPages", () => {
  let base = "";
  const server = http.createServer((req, res) => {
    nonceOnPrerenderedPages(res, "N");
    if (req.url === "/static") {
      const body = '<html><script src="/x.js"></script></html>';
      res.setHeader("x-nextjs-cache", "HIT");
      res.setHeader("ETag", '"abc"');
      res.setHeader("Cache-Control", "s-maxage=31536000");
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.setHeader("Content-Length", Buffer.byteLength(body));
      res.end(body);
    } else if (req.url === "/static-gzip") {
      res.writeHead(200, { "content-type": "text/html", "x-nextjs-cache": "HIT", "content-encoding": "gzip" });
      res.end(zlib.gzipSync('<html><script src="/x.js"></script></html>'));
    } else if (req.url === "/static-head") {
      res.writeHead(200, { "content-type": "text/html", "x-nextjs-prerender": "1", "content-length": "28" });
      res.write("<html><scr");
      res.end("ipt></script></html>");
    } else {
      res.setHeader("content-type", "text/html");
      res.write('<html><script nonce="own">');
      setTimeout(() => res.end("</script></html>"), 10);
    }
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("sends a prerendered page with this response's nonce, for this response only", async () => {
    const response = await fetch(`${base}/static`);
    expect(await response.text()).toBe('<html><script nonce="N" src="/x.js"></script></html>');
    expect(response.headers.get("etag")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
  });

  it("opens a page Next compressed, and compresses it again", async () => {
    const response = await fetch(`${base}/static-gzip`);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(await response.text()).toBe('<html><script nonce="N" src="/x.js"></script></html>');
  });

  it("holds a page whose head was written with its headers, even a tag split across writes", async () => {
    const response = await fetch(`${base}/static-head`);
    expect(await response.text()).toBe('<html><script nonce="N"></script></html>');
  });

  it("leaves a page rendered for the request as it streams", async () => {
    const response = await fetch(`${base}/dynamic`);
    expect(await response.text()).toBe('<html><script nonce="own"></script></html>');
    expect(response.headers.get("cache-control")).toBeNull();
  });
});
