import { describe, expect, it } from 'vitest';
import { mdCell, mdCode, mdCodeBlock, mdText } from './markdown-escape.js';
import { xmlAttr, xmlText } from './xml-escape.js';
import { htmlWithCode } from './html-escape.js';

describe('xml escaping', () => {
  it('escapes markup and drops characters XML 1.0 cannot hold', () => {
    expect(xmlText('a < b && c > d\u0000\u0007\u001B\uFFFE\uD800')).toBe('a &lt; b &amp;&amp; c &gt; d');
    expect(xmlText('tab\tnl\ncr\r 😀')).toBe('tab\tnl\ncr\r 😀');
  });

  it('keeps line breaks in attributes as character references', () => {
    expect(xmlAttr('say "hi"\n\tnow')).toBe('say &quot;hi&quot;&#10;&#9;now');
  });
});

describe('markdown escaping', () => {
  it('neutralises formatting, links, mentions and pipes', () => {
    expect(mdText('*bold* [x](y) @team <b> a|b\nnext')).toBe('\\*bold\\* \\[x\\](y) \\@team \\<b\\> a\\|b next');
  });

  it('fences code around any backticks', () => {
    expect(mdCode('plain')).toBe('`plain`');
    expect(mdCode('a`b')).toBe('``a`b``');
    expect(mdCode('`x`')).toBe('`` `x` ``');
    expect(mdCode('a|b')).toBe('`a\\|b`');
    expect(mdCodeBlock('echo ```', 'sh')).toBe('````sh\necho ```\n````');
  });

  it('escapes table cells', () => {
    expect(mdCell('a|b\nc')).toBe('a\\|b c');
  });
});

describe('html with code spans', () => {
  it("shows a rule's code spans as code and escapes everything, inside them too", () => {
    expect(htmlWithCode('GET MUST carry an `ETag` (strong `"x"` or weak `W/"x"`)')).toBe('GET MUST carry an <code>ETag</code> (strong <code>&quot;x&quot;</code> or weak <code>W/&quot;x&quot;</code>)');
    expect(htmlWithCode('a <b> and `<script>` and a lone ` tick')).toBe('a &lt;b&gt; and <code>&lt;script&gt;</code> and a lone ` tick');
  });
});
