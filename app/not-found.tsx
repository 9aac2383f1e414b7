import "./globals.css";

// Only an address proxy.ts did not place under a locale reaches here (a missing file under /_next/):
// it has no reader's language, so it says so in both.
export default function NotFound() {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 px-6 py-10 text-slate-900 antialiased">
        <main>
          <h1 className="text-lg font-semibold">Not found</h1>
          <p lang="zh-CN">未找到</p>
        </main>
      </body>
    </html>
  );
}
