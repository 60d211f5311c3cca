/** A yoga plugin: the GET parameters and form-encoded POST bodies of /graphql, read safely. */
import { createGraphQLError, type Plugin } from 'graphql-yoga';

/**
 * yoga's parsers of GET parameters and of form-encoded POST bodies JSON.parse `variables` and
 * `extensions` unguarded: text that is not JSON threw a SyntaxError, which error masking answered as a
 * 200 "Unexpected error" (an INTERNAL_SERVER_ERROR in the log). These parsers read the parameters as
 * yoga does (an empty one is absent) and answer such text with yoga's own kind of request error: a 400
 * BAD_REQUEST that names the parameter. What the text holds once parsed (an object or not, its
 * strings, its depth) is checked afterwards, as for a JSON body.
 */
export function searchParamsParserPlugin(): Plugin {
  return {
    onRequestParse({ request, url, setRequestParser }) {
      if (request.method === 'GET') setRequestParser(() => paramsOfSearch(url.searchParams));
      else if (request.method === 'POST' && isFormContentType(request.headers.get('content-type'))) {
        setRequestParser(async (formRequest) => paramsOfSearch(new URLSearchParams(await formRequest.text())));
      }
    },
  };
}

/** yoga's isContentTypeMatch for its form-encoded POST parser. */
const isFormContentType = (header: string | null) => {
  const type = header?.split(',')[0];
  return type === 'application/x-www-form-urlencoded' || type?.startsWith('application/x-www-form-urlencoded;') === true;
};

function paramsOfSearch(search: URLSearchParams) {
  return {
    query: search.get('query') || undefined,
    operationName: search.get('operationName') || undefined,
    variables: jsonParameter(search, 'variables'),
    extensions: jsonParameter(search, 'extensions'),
  };
}

/** A JSON parameter; whether it is an object is yoga's check of every request's parameters (as for a body). */
function jsonParameter(search: URLSearchParams, name: 'variables' | 'extensions'): Record<string, unknown> | undefined {
  const text = search.get(name) || undefined;
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw createGraphQLError(`The "${name}" parameter must be a JSON object; it is not valid JSON.`, {
      extensions: { http: { status: 400 }, code: 'BAD_REQUEST' },
    });
  }
}
