import { Lexer, type Token, type Tokens } from 'marked';
import type { ComponentChildren } from 'preact';

/** Links go only where a link is safe to follow: the web, mail, or a page of the console itself. */
const safeHref = (href: string): string | null => (/^(https?:|mailto:|#\/)/i.test(href.trim()) ? href.trim() : null);

function inline(tokens: readonly Token[] | undefined): ComponentChildren {
  return (tokens ?? []).map((t) => inlineToken(t));
}

function inlineToken(t: Token): ComponentChildren {
  switch (t.type) {
    case 'strong':
      return <strong>{inline((t as Tokens.Strong).tokens)}</strong>;
    case 'em':
      return <em>{inline((t as Tokens.Em).tokens)}</em>;
    case 'del':
      return <del>{inline((t as Tokens.Del).tokens)}</del>;
    case 'codespan':
      return <code>{(t as Tokens.Codespan).text}</code>;
    case 'br':
      return <br />;
    case 'link': {
      const link = t as Tokens.Link;
      const href = safeHref(link.href);
      return href ? (
        <a href={href} rel="noopener noreferrer nofollow" target={href.startsWith('#') ? undefined : '_blank'}>
          {inline(link.tokens)}
        </a>
      ) : (
        inline(link.tokens)
      );
    }
    case 'image': {
      // Shown as a link: the console loads nothing from elsewhere (its Content-Security-Policy would refuse it anyway).
      const image = t as Tokens.Image;
      const href = safeHref(image.href);
      return href ? (
        <a href={href} rel="noopener noreferrer nofollow" target="_blank">
          {image.text || href}
        </a>
      ) : (
        image.text
      );
    }
    case 'text': {
      const text = t as Tokens.Text;
      return text.tokens ? inline(text.tokens) : text.text;
    }
    case 'escape':
      return (t as Tokens.Escape).text;
    default:
      // Raw HTML and anything else stays the text it was written as: nothing in a description becomes markup.
      return 'raw' in t ? t.raw : '';
  }
}

function block(t: Token): ComponentChildren {
  switch (t.type) {
    case 'heading': {
      const h = t as Tokens.Heading;
      // Headings inside a description sit below the page's own.
      const Tag = `h${Math.min(6, h.depth + 2)}` as 'h3';
      return <Tag>{inline(h.tokens)}</Tag>;
    }
    case 'paragraph':
      return <p>{inline((t as Tokens.Paragraph).tokens)}</p>;
    case 'text': {
      const text = t as Tokens.Text;
      return text.tokens ? inline(text.tokens) : text.text;
    }
    case 'code':
      return (
        <pre>
          <code>{(t as Tokens.Code).text}</code>
        </pre>
      );
    case 'blockquote':
      return <blockquote>{(t as Tokens.Blockquote).tokens.map(block)}</blockquote>;
    case 'hr':
      return <hr />;
    case 'list': {
      const list = t as Tokens.List;
      const items = list.items.map((item) => (
        <li>
          {item.task && <input type="checkbox" checked={item.checked} disabled />}
          {item.tokens.map(block)}
        </li>
      ));
      return list.ordered ? <ol start={typeof list.start === 'number' ? list.start : undefined}>{items}</ol> : <ul>{items}</ul>;
    }
    case 'table': {
      const table = t as Tokens.Table;
      return (
        <table>
          <thead>
            <tr>
              {table.header.map((c) => (
                <th scope="col">{inline(c.tokens)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr>
                {row.map((c) => (
                  <td>{inline(c.tokens)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      );
    }
    case 'space':
    case 'def':
      return null;
    default:
      return <p>{'raw' in t ? t.raw : ''}</p>;
  }
}

/**
 * A description written in Markdown (GitHub's flavour, as DataHub's editor writes it), rendered safely: marked only
 * reads it into tokens, and the console builds the elements itself, so raw HTML shows as text and a link goes only to
 * http(s), mailto or the console.
 */
export function Markdown({ text, class: cls = 'markdown' }: { text: string; class?: string }) {
  return <div class={cls}>{Lexer.lex(text, { gfm: true }).map(block)}</div>;
}
