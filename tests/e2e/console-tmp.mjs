import { launch } from "/work/main/tests/e2e/browser.mjs";
const browser = await launch();
const page = await browser.newPage();
page.on("console", (m) => console.log("console:", m.type(), m.text().slice(0, 400)));
page.on("pageerror", (e) => console.log("pageerror:", String(e).slice(0, 600)));
await page.goto(process.argv[2]);
await page.waitForTimeout(40000);
console.log("badge:", await page.textContent("#device-badge").catch(() => "none"));
await browser.close();
