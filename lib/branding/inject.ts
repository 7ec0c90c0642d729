// The root's custom code for every console page: custom_head_html, global_css and global_js
// (docs/options.md, "Branding"; the trust model is in docs/console-ui.md, "Root-authored code").
// Only the root can save them; they run in every visitor's page as written. These helpers only
// keep each value inside its own element: a closing tag in the value cannot end the element
// early and turn the rest into markup.

// The script that adds custom_head_html to <head>. React cannot render raw HTML into <head>,
// so the HTML travels as a JSON string; its nodes are appended in order, and a <script> in it
// is re-created so that the browser runs it (a parsed-in script never runs).
export function headHtmlScript(html: string): string {
  if (!html.trim()) return "";
  return `(function(){var t=document.createElement("template");t.innerHTML=${scriptJson(html)};Array.prototype.slice.call(t.content.childNodes).forEach(function(n){if(n.nodeName==="SCRIPT"){var s=document.createElement("script");for(var i=0;i<n.attributes.length;i++)s.setAttribute(n.attributes[i].name,n.attributes[i].value);s.text=n.textContent;n=s;}document.head.appendChild(n);});})();`;
}

// A JSON string literal safe inside <script>: "<" is escaped, so neither </script> nor <!--
// can appear in it.
export function scriptJson(value: string): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

// global_css inside <style>: a "</style" in it would close the element.
export function styleText(css: string): string {
  return css.replace(/<\/(style)/gi, "<\\/$1");
}

// global_js inside <script>: a "</script" in it would close the element.
export function scriptText(js: string): string {
  return js.replace(/<\/(script)/gi, "<\\/$1");
}
