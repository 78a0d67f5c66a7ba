// Runs a flame graph SVG's own script against a minimal DOM made from the
// file's frames, clicks a frame and checks the zoom:
//   node fgzoom.js FILE.svg FRAME CHILD OTHER
// After clicking FRAME, CHILD (inside FRAME, as wide as it) must span the
// full width, OTHER (outside it) must be hidden; "Reset Zoom" restores
// OTHER. Prints "ok" or the reason.
'use strict';
const fs = require('fs');
const [file, frame, child, other] = process.argv.slice(2);
const svg = fs.readFileSync(file, 'utf8');
const script = /<script[^>]*><!\[CDATA\[([\s\S]*?)\]\]><\/script>/.exec(svg);
if (!script) { console.log('no inline script'); process.exit(1); }

function el(attrs, text) {
	return {
		attrs: Object.assign({}, attrs), style: {}, textContent: text || '', kids: {},
		getAttribute(k) { return k in this.attrs ? String(this.attrs[k]) : null; },
		setAttribute(k, v) { this.attrs[k] = v; },
		getElementsByTagName(t) { return this.kids[t] || []; },
	};
}
function attrs(s) {
	const a = {};
	for (const m of s.matchAll(/([\w-]+)="([^"]*)"/g)) a[m[1]] = m[2];
	return a;
}
const unesc = s => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
const frames = [];
const re = /<g class="f"([^>]*)><title>([^<]*)<\/title><rect([^>]*)\/><text([^>]*)>([^<]*)<\/text><\/g>/g;
for (const m of svg.matchAll(re)) {
	const g = el(attrs(m[1]));
	g.kids.title = [el({}, unesc(m[2]))];
	g.kids.rect = [el(attrs(m[3]))];
	g.kids.text = [el(attrs(m[4]), unesc(m[5]))];
	frames.push(g);
}
const reset = el({});
global.document = {
	querySelectorAll: q => (q === '.f' ? frames : []),
	getElementById: id => (id === 'reset' ? reset : null),
};
// eslint-disable-next-line no-eval
(0, eval)(script[1] + '\ninit();');
const find = n => frames.find(g => g.getAttribute('data-n') === n);
const [f, c, o] = [find(frame), find(child), find(other)];
if (!f || !c || !o) { console.log('frames not found: ' + frames.map(g => g.getAttribute('data-n'))); process.exit(1); }
const width = g => +g.getElementsByTagName('rect')[0].getAttribute('width');
const full = +/W=(\d+)/.exec(script[1])[1] - 20;
const otherBefore = width(o);
f.onclick.call(f);
if (Math.abs(width(c) - full) > 0.5) { console.log(`${child} is ${width(c)} wide after zoom, not ${full}`); process.exit(1); }
if (o.style.display !== 'none') { console.log(`${other} still shown after zoom`); process.exit(1); }
if (!c.getElementsByTagName('text')[0].textContent.startsWith(child)) { console.log('label not refitted'); process.exit(1); }
reset.onclick();
if (o.style.display === 'none' || Math.abs(width(o) - otherBefore) > 0.5) { console.log(`${other} not restored by reset`); process.exit(1); }
console.log('ok');
