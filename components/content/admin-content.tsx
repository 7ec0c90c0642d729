// Content an administrator wrote in the settings (HomePageContent, About): a URL is shown
// in a frame, anything else as the HTML (or plain text) they wrote.
export function AdminContent({ content }: { content: string }) {
  const value = content.trim();
  if (/^https?:\/\/\S+$/.test(value)) {
    return <iframe src={value} title="content" className="h-[calc(100vh-8rem)] w-full border-0" />;
  }
  const isHtml = /<[a-z][\s\S]*>/i.test(value);
  return (
    <div
      className={isHtml ? "admin-content mx-auto max-w-5xl px-4 py-6" : "mx-auto max-w-5xl px-4 py-6 whitespace-pre-wrap"}
      {...(isHtml ? { dangerouslySetInnerHTML: { __html: value } } : { children: value })}
    />
  );
}
