import { escapeHtmlText } from './html';

describe('escapeHtmlText', () => {
  it('escapes what would end a double-quoted attribute or start markup, & first', () => {
    expect(escapeHtmlText(`<b class="x">&amp;'</b>`)).toBe(`&lt;b class=&quot;x&quot;&gt;&amp;amp;'&lt;/b&gt;`);
  });
});
