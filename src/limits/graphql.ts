/**
 * The /graphql edge: operation limits, hostile-input checks and the error messages anonymous callers
 * get, as graphql-yoga (envelop) plugins. Only yoga runs them: the REST adapters execute their
 * own compiled operations in-process (src/graphql/execute.ts) and are not subject to these limits.
 *
 * Every refusal is a GraphQL error with its own `extensions.code`:
 * - GRAPHQL_TOKEN_LIMIT, GRAPHQL_DEPTH_LIMIT, GRAPHQL_ALIAS_LIMIT, GRAPHQL_DIRECTIVE_LIMIT: GraphQL Armor's
 *   plugins (tokens while parsing, the others while validating); introspection has a depth limit of its
 *   own (INTROSPECTION_MAX_DEPTH);
 * - GRAPHQL_COST_LIMIT: @pothos/plugin-complexity's validation rule over the costs the schema declares
 *   (a field costs 1; a connection's selection counts `first` times, from a literal, a variable or the
 *   default; other lists once), so a request is measured with its variables before anything runs;
 * - BAD_USER_INPUT: NUL characters, unpaired surrogates or too deep nesting in a variable or a literal,
 *   and variable values graphql-js cannot coerce.
 */
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin, maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { createComplexityRule } from '@pothos/plugin-complexity';
import {
  GraphQLError,
  Kind,
  TypeInfo,
  ValidationContext,
  type ASTNode,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationRule,
} from 'graphql';
import type { Plugin, YogaInitialContext } from 'graphql-yoga';
import type { Principal } from '../auth/auth.service.ts';
import type { Config } from '../config.ts';
import { findUnsafeJson, unsafeStringProblem, type Path } from './json-safety.ts';

export type GraphQLLimitSettings = Pick<Config, 'graphql' | 'maxJsonDepth'>;

export type LimitCode = 'GRAPHQL_TOKEN_LIMIT' | 'GRAPHQL_DEPTH_LIMIT' | 'GRAPHQL_ALIAS_LIMIT' | 'GRAPHQL_DIRECTIVE_LIMIT' | 'GRAPHQL_COST_LIMIT';

/**
 * graphql-js parses recursively and overflows the stack somewhere past a thousand nested brackets,
 * before Armor's token count stops it (the count only grows as the parser descends). So the text is
 * scanned for nesting first; no legitimate operation comes near this.
 */
const MAX_DOCUMENT_NESTING = 256;

function limitError(code: LimitCode, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}

/** Armor prefixes its messages ("Syntax Error: Aliases limit of 15 exceeded, found 16."). */
const armorMessage = (error: GraphQLError) => error.message.replace(/^Syntax Error:\s*/, '');

/** Armor's callbacks: report the refusal with its own code instead of Armor's uncoded error. */
function reportAs(code: LimitCode, onReported?: (context: ValidationContext) => void) {
  return {
    propagateOnRejection: false,
    onReject: [
      (context: ValidationContext | null, error: GraphQLError) => {
        if (!context) return;
        context.reportError(limitError(code, armorMessage(error)));
        onReported?.(context);
      },
    ],
  };
}

/**
 * The depth limit of introspection. Armor's depth limit leaves `__schema` out (its `ignoreIntrospection`),
 * as the standard introspection query is deeper than operations need to be: graphql-js's
 * `getIntrospectionQuery`, which GraphiQL, codegen and most tools send, is 15 deep (its `ofType` chain
 * 9). Left out entirely, an `ofType` chain could go as deep as the parser allows. So every operation is
 * also measured whole, introspection included, against the larger of this and GRAPHQL_MAX_DEPTH: only
 * introspection can fail this measure alone. (graphql-js's own MaxIntrospectionDepthRule bounds the
 * nesting of introspection lists — `fields { type { fields …` — which multiply an answer's size.)
 */
const INTROSPECTION_MAX_DEPTH = 15;

function badInput(message: string, path: Path, nodes?: ASTNode[]): GraphQLError {
  return new GraphQLError(message, { nodes, extensions: { code: 'BAD_USER_INPUT', errors: [{ message, path }] } });
}

const describePath = (path: Path) => (path.length > 1 ? ` at ${JSON.stringify(path.slice(1))}` : '');

/** The first variable with an unsafe string or too deep nesting (iterative: any depth is safe to check). */
function unsafeVariable(variables: Record<string, unknown>, maxJsonDepth: number): GraphQLError | undefined {
  for (const [name, value] of Object.entries(variables)) {
    const nameProblem = unsafeStringProblem(name);
    if (nameProblem) return badInput(`Variable name ${nameProblem}`, []);
    const unsafe = findUnsafeJson(value, maxJsonDepth, [name]);
    if (unsafe) return badInput(`Variable "$${name}"${describePath(unsafe.path)} ${unsafe.message}`, unsafe.path);
  }
  return undefined;
}

// excessiveNesting reads the text by character code (it runs on every request's document).
const [HASH, QUOTE, BACKSLASH, DOLLAR, COLON, NEWLINE, RETURN] = ['#', '"', '\\', '$', ':', '\n', '\r'].map((ch) => ch.charCodeAt(0)) as [
  number,
  number,
  number,
  number,
  number,
  number,
  number,
];
const [OPEN_PAREN, OPEN_BRACKET, OPEN_BRACE, CLOSE_PAREN, CLOSE_BRACKET, CLOSE_BRACE] = [...'([{)]}'].map((ch) => ch.charCodeAt(0)) as [
  number,
  number,
  number,
  number,
  number,
  number,
];
/** [A-Za-z_] and [A-Za-z0-9_] (\w), GraphQL's name characters. */
const isNameStart = (code: number) => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
const isNameContinue = (code: number) => isNameStart(code) || (code >= 0x30 && code <= 0x39);

/**
 * Where a document's text nests (), [] and {} deeper than `limit`, outside strings and comments: the
 * argument (or `$variable` default) it happens in, if any. Undefined when it stays within the limit.
 */
function excessiveNesting(text: string, limit: number): { argument: string | undefined } | undefined {
  const open: number[] = [];
  const argumentAtParen: (string | undefined)[] = [];
  // The last name seen (its span; sliced only when an argument takes it).
  let nameStart = -1;
  let nameEnd = -1;
  const lastName = () => (nameStart < 0 ? undefined : (text.charCodeAt(nameStart - 1) === DOLLAR ? '$' : '') + text.slice(nameStart, nameEnd));
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === HASH) {
      while (i < text.length && text.charCodeAt(i) !== NEWLINE && text.charCodeAt(i) !== RETURN) i++;
    } else if (code === QUOTE) {
      if (text.startsWith('"""', i)) {
        i += 3;
        while (i < text.length && !text.startsWith('"""', i)) i += text.charCodeAt(i) === BACKSLASH ? 2 : 1;
        i += 2;
      } else {
        for (i++; i < text.length && text.charCodeAt(i) !== QUOTE && text.charCodeAt(i) !== NEWLINE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
      }
    } else if (isNameStart(code)) {
      nameStart = i;
      while (i + 1 < text.length && isNameContinue(text.charCodeAt(i + 1))) i++;
      nameEnd = i + 1;
    } else if (code === COLON && open.at(-1) === OPEN_PAREN) {
      argumentAtParen[argumentAtParen.length - 1] = lastName();
    } else if (code === OPEN_PAREN || code === OPEN_BRACKET || code === OPEN_BRACE) {
      open.push(code);
      if (code === OPEN_PAREN) argumentAtParen.push(undefined);
      if (open.length > limit) return { argument: argumentAtParen.at(-1) };
    } else if (code === CLOSE_PAREN || code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      if (open.pop() === OPEN_PAREN) argumentAtParen.pop();
    }
  }
  return undefined;
}

/** Where an argument's value lies in the document, to name it in graphql-js's literal errors. */
export interface ArgumentSpan {
  start: number;
  end: number;
  owner: string;
}

/**
 * graphql-js refuses a literal of the wrong type or range ("Int cannot represent …") without naming the
 * argument: such an error becomes BAD_USER_INPUT and says whose value it is.
 */
function nameLiteralError(error: GraphQLError, argumentsSeen: ArgumentSpan[]) {
  const start = error.nodes?.[0]?.loc?.start;
  if (start === undefined || (error.extensions.code !== undefined && error.extensions.code !== 'GRAPHQL_VALIDATION_FAILED')) return;
  if (!/cannot represent|Expected value of type|is not defined by type|of required type/.test(error.message)) return;
  const span = argumentsSeen.find((candidate) => candidate.start <= start && start < candidate.end);
  if (!span) return;
  error.message = `${span.owner}: ${error.message}`;
  (error.extensions as Record<string, unknown>).code = 'BAD_USER_INPUT';
}

/**
 * Strings and lists/objects written into the document (arguments, also of directives, and variable
 * defaults): the same checks as for variables. graphql-js's `visit` is iterative, so this is safe at
 * any depth the parser accepted.
 */
function hostileLiteralsRule(maxJsonDepth: number, argumentsSeen?: ArgumentSpan[]): ValidationRule {
  return (context) => {
    let depth = 0;
    type Ancestors = readonly (ASTNode | readonly ASTNode[])[];
    const where = (node: ASTNode, parent: ASTNode | readonly ASTNode[] | undefined, path: readonly (string | number)[], ancestors: Ancestors) => {
      // `ancestors` stops before the parent; chain[k] is chain[k - 1][path[k - 1]].
      const chain = parent === undefined ? [...ancestors, node] : [...ancestors, parent, node];
      let owner = 'Value';
      let valuePath: Path = [];
      for (let i = 0; i < chain.length; i++) {
        const item = chain[i]!;
        if ('kind' in item) {
          if (item.kind === Kind.ARGUMENT) {
            const parent = chain[i - 2];
            const of =
              parent && 'kind' in parent && (parent.kind === Kind.FIELD || parent.kind === Kind.DIRECTIVE)
                ? ` of "${parent.kind === Kind.DIRECTIVE ? '@' : ''}${parent.name.value}"`
                : '';
            owner = `Argument "${item.name.value}"${of}`;
            valuePath = [item.name.value];
          } else if (item.kind === Kind.VARIABLE_DEFINITION) {
            owner = `Default value of variable "$${item.variable.name.value}"`;
            valuePath = [item.variable.name.value];
          } else if (item.kind === Kind.OBJECT_FIELD) {
            valuePath.push(item.name.value);
          }
        } else {
          const parent = chain[i - 1];
          if (parent && 'kind' in parent && parent.kind === Kind.LIST) valuePath.push(path[i] as number);
        }
      }
      return { owner, valuePath };
    };
    const nested = {
      enter(node: ASTNode, _key: unknown, parent: ASTNode | readonly ASTNode[] | undefined, path: readonly (string | number)[], ancestors: Ancestors) {
        if (depth + 1 > maxJsonDepth) {
          const { owner, valuePath } = where(node, parent, path, ancestors);
          context.reportError(badInput(`${owner}${describePath(valuePath)} nests lists/objects deeper than ${maxJsonDepth} levels`, valuePath, [node]));
          return false; // skip the rest of it (and its leave)
        }
        depth++;
        return undefined;
      },
      leave() {
        depth--;
      },
    };
    return {
      Argument(node, _key, parent, path, ancestors) {
        if (argumentsSeen && node.value.loc) {
          argumentsSeen.push({ start: node.value.loc.start, end: node.value.loc.end, owner: where(node, parent, path, ancestors).owner });
        }
      },
      ListValue: nested,
      ObjectValue: nested,
      StringValue(node, _key, parent, path, ancestors) {
        const problem = unsafeStringProblem(node.value);
        if (!problem) return;
        const { owner, valuePath } = where(node, parent, path, ancestors);
        context.reportError(badInput(`${owner}${describePath(valuePath)} ${problem}`, valuePath, [node]));
      },
    };
  };
}

/**
 * The cost limit: @pothos/plugin-complexity's rule, measuring the chosen operation with the request's
 * variables. Only its verdict is reported: what else it runs into (an unknown field, a literal or
 * variable of the wrong type) is reported by graphql-js's own rules or at coercion, with better messages.
 */
function costLimitRule(maxCost: number, context: LimitContext): ValidationRule {
  const rule = createComplexityRule({
    context,
    variableValues: (context.params.variables as Record<string, unknown> | undefined) ?? {},
    operationName: context.params.operationName ?? undefined,
    validate: ({ complexity }, reportError) => {
      if (complexity > maxCost) reportError(limitError('GRAPHQL_COST_LIMIT', `Query cost limit of ${maxCost} exceeded, found ${complexity}.`));
    },
  });
  return (validationContext) => {
    const onlyCost = Object.create(validationContext, {
      reportError: {
        value: (error: GraphQLError) => {
          if (error.extensions.code === 'GRAPHQL_COST_LIMIT') validationContext.reportError(error);
        },
      },
    }) as ValidationContext;
    const visitor = rule(onlyCost) as { OperationDefinition?: { enter(node: OperationDefinitionNode): void; leave(): void } };
    const operation = visitor.OperationDefinition;
    if (!operation) return {};
    return {
      OperationDefinition: {
        enter(node) {
          try {
            operation.enter(node);
          } catch {
            // An argument value it cannot read: graphql-js's ValuesOfCorrectTypeRule reports it.
          }
        },
        leave() {
          operation.leave();
        },
      },
    };
  };
}

/** graphql-js's validate: how many errors it reports before giving up, and the error it ends with. */
const MAX_VALIDATION_ERRORS = 100;
const VALIDATION_ABORTED = 'Too many validation errors, error limit reached. Validation aborted.';

/** Thrown out of the cost rule's walk when it reaches MAX_VALIDATION_ERRORS, as graphql-js's validate stops. */
class ValidationAborted extends Error {}

/**
 * The cost rule's errors for a document, as graphql-js's validate with that one rule would report
 * them. The rule only acts on operations, so its visitor is run on each operation in document order,
 * without validate's walk of every node with its type tracking (which cost more than the measuring).
 */
function measureCost(schema: GraphQLSchema, document: DocumentNode, rule: ValidationRule): GraphQLError[] {
  const errors: GraphQLError[] = [];
  const context = new ValidationContext(schema, document, new TypeInfo(schema), (error) => {
    if (errors.length >= MAX_VALIDATION_ERRORS) {
      errors.push(new GraphQLError(VALIDATION_ABORTED));
      throw new ValidationAborted();
    }
    errors.push(error);
  });
  const visitor = rule(context) as { OperationDefinition?: { enter(node: OperationDefinitionNode): void; leave(): void } };
  try {
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION || !visitor.OperationDefinition) continue;
      visitor.OperationDefinition.enter(definition);
      visitor.OperationDefinition.leave();
    }
  } catch (error) {
    if (!(error instanceof ValidationAborted)) throw error;
  }
  return errors;
}

/** graphql-js's coercion errors name the variable ("Variable "$first" got invalid value …"): the caller's input. */
const isVariableValueError = (error: GraphQLError) =>
  /^Variable "\$\w+" (?:got invalid value|of required type|of non-null type)/.test(error.message) &&
  (error.extensions.code === undefined || error.extensions.code === 'GRAPHQL_VALIDATION_FAILED');

/** "Did you mean …?" hints, which graphql-js adds for fields, arguments, types and enum values. */
const SUGGESTION = / ?Did you mean [^?]*\?/g;

const isAnonymous = (context: { principal?: Principal }) => context.principal?.kind !== 'admin' && context.principal?.kind !== 'apiKey';

/** Rewrites a result's errors in place (graphql-js errors are plain objects we may annotate). */
function polishErrors(errors: readonly Error[], anonymous: boolean) {
  for (const error of errors) {
    if (!(error instanceof GraphQLError)) continue;
    if (isVariableValueError(error)) (error.extensions as Record<string, unknown>).code = 'BAD_USER_INPUT';
    if (anonymous) error.message = error.message.replace(SUGGESTION, '');
  }
}

type LimitContext = YogaInitialContext & { principal?: Principal };

/** As many texts as yoga's parse cache keeps documents (its LRU of 1,024). */
const SHALLOW_TEXTS_KEPT = 1_024;

/** A set of the most recently added texts, the oldest forgotten past `size`. */
class RecentTexts {
  private readonly texts = new Set<string>();
  constructor(private readonly size: number) {}
  has(text: string): boolean {
    return this.texts.has(text);
  }
  add(text: string): void {
    if (this.texts.has(text)) return;
    this.texts.add(text);
    if (this.texts.size > this.size) this.texts.delete(this.texts.values().next().value!);
  }
}

/** The yoga plugins that enforce every /graphql limit and the exposure policy (see the module comment). */
export function graphqlLimitPlugins(settings: GraphQLLimitSettings): Plugin<LimitContext>[] {
  const { maxDepth, maxAliases, maxTokens, maxDirectives, maxCost } = settings.graphql;

  /** Document texts whose nesting was measured within the limit (the scan read each once). */
  const shallowTexts = new RecentTexts(SHALLOW_TEXTS_KEPT);
  const hostileInput: Plugin<LimitContext> = {
    // Before parsing: the document's nesting (the parser recurses) and every variable (coercion and zod do).
    onParams({ params, setResult }) {
      const query = typeof params.query === 'string' ? params.query : '';
      const nesting = shallowTexts.has(query) ? undefined : excessiveNesting(query, MAX_DOCUMENT_NESTING);
      if (!nesting) shallowTexts.add(query);
      if (nesting) {
        const message = `nests brackets deeper than ${MAX_DOCUMENT_NESTING} levels`;
        setResult({
          errors: [
            nesting.argument
              ? badInput(`${nesting.argument.startsWith('$') ? `Default value of variable "${nesting.argument}"` : `Argument "${nesting.argument}"`} ${message}`, [
                  nesting.argument.replace(/^\$/, ''),
                ])
              : limitError('GRAPHQL_DEPTH_LIMIT', `Query depth limit of ${maxDepth} exceeded: the document ${message}.`),
          ],
        });
        return;
      }
      const variables = params.variables;
      if (variables && typeof variables === 'object' && !Array.isArray(variables)) {
        const unsafe = unsafeVariable(variables, settings.maxJsonDepth);
        if (unsafe) setResult({ errors: [unsafe] });
      }
    },
  };

  /**
   * Documents that passed every rule except the cost before. graphql-js's rules, Armor's and the
   * hostile-literal rule depend only on the document, so a document seen valid is not walked by them
   * again; the cost, which depends on the request's variables and operation, is measured for every
   * request. Keyed weakly by the parsed document, which yoga's parse cache hands out once per document
   * text (an LRU of 1,024), so this holds no more than that cache does. Invalid documents are never
   * cached: their errors are worked out (and polished for the caller) afresh each time.
   *
   * Introspection is open to every caller, anonymous ones included: the schema is published anyway
   * (schema/schema.graphql, and GraphiQL's Docs panel should work before a key is typed in; see
   * docs/graphql.md), and what a caller may read or change is decided by the resolvers.
   */
  const validDocuments = new WeakSet<DocumentNode>();

  const perRequestRules: Plugin<LimitContext> = {
    onValidate({ context, params, addValidationRule, setResult }) {
      // envelop types the parameters loosely (any): they are graphql-js's.
      const document = params.documentAST as DocumentNode;
      if (validDocuments.has(document)) {
        setResult(measureCost(params.schema as GraphQLSchema, document, costLimitRule(maxCost, context)));
        return;
      }
      const argumentsSeen: ArgumentSpan[] = [];
      addValidationRule(hostileLiteralsRule(settings.maxJsonDepth, argumentsSeen));
      // Cost depends on the variables (`first: $n`) and the operation chosen, so it is measured per request.
      addValidationRule(costLimitRule(maxCost, context));
      return ({ valid, result }) => {
        // Only the cost refused it (or nothing did): the document itself passes every other rule.
        if (valid || result.every((error) => error instanceof GraphQLError && error.extensions.code === 'GRAPHQL_COST_LIMIT')) validDocuments.add(document);
        if (valid) return;
        for (const error of result) if (error instanceof GraphQLError) nameLiteralError(error, argumentsSeen);
        polishErrors(result, isAnonymous(context));
      };
    },
    // graphql-js coerces variables at execution: their errors are polished there.
    onExecute({ args }) {
      const anonymous = isAnonymous(args.contextValue);
      return {
        onExecuteDone({ result }) {
          const single = result as ExecutionResult;
          if (single.errors) polishErrors(single.errors, anonymous);
        },
      };
    },
  };

  /** Validations whose operation the depth limit refused already: the introspection limit adds no second error. */
  const refusedDeep = new WeakSet<ValidationContext>();
  const wholeDepthLimit = Math.max(maxDepth, INTROSPECTION_MAX_DEPTH);
  const introspectionDepth: Plugin<LimitContext> = {
    onValidate({ addValidationRule }) {
      addValidationRule(
        maxDepthRule({
          n: wholeDepthLimit,
          ignoreIntrospection: false,
          flattenFragments: true,
          propagateOnRejection: false,
          onReject: [
            (context, error) => {
              if (!context || refusedDeep.has(context)) return;
              context.reportError(limitError('GRAPHQL_DEPTH_LIMIT', armorMessage(error).replace(/^Query depth/, 'Introspection depth')));
            },
          ],
        }),
      );
    },
  };

  return [
    maxTokensPlugin({
      n: maxTokens,
      onReject: [
        (_context, error) => {
          throw limitError('GRAPHQL_TOKEN_LIMIT', armorMessage(error));
        },
      ],
    }),
    maxDepthPlugin({ n: maxDepth, flattenFragments: true, ...reportAs('GRAPHQL_DEPTH_LIMIT', (context) => refusedDeep.add(context)) }),
    introspectionDepth,
    maxAliasesPlugin({ n: maxAliases, ...reportAs('GRAPHQL_ALIAS_LIMIT') }),
    maxDirectivesPlugin({ n: maxDirectives, ...reportAs('GRAPHQL_DIRECTIVE_LIMIT') }),
    hostileInput,
    perRequestRules,
  ];
}
