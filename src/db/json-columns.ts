/**
 * What the tables' JSON columns hold: a form's steps and theme, a response's answers and metadata.
 * The domains build and check these values (the component modules, forms/theme.ts, the responses
 * services); the tables only store them, so their shapes are declared here, below every domain.
 */

/** A component of a stored form. */
export interface StoredComponent {
  /** Stable id; the `questionId` of this component's answers. */
  id: string;
  type: string;
  content: Record<string, unknown>;
}

export interface StoredStep {
  id: string;
  name: string;
  components: StoredComponent[];
}

/** How one component type is styled (every value CSS-safe; forms/theme.ts checks them). */
export interface ComponentStyle {
  backgroundColor?: string | undefined;
  textColor?: string | undefined;
  borderColor?: string | undefined;
  accentColor?: string | undefined;
  borderRadius?: number | undefined;
  fontSize?: number | undefined;
}

/** A form's theme (forms/theme.ts: its schema, defaults and inheritance). */
export interface Theme {
  fonts: { heading: string; body: string };
  colors: { primary: string; background: string; text: string; buttonText: string };
  background:
    | { type: 'color'; color: string }
    | { type: 'gradient'; from: string; to: string; angle: number }
    | { type: 'image'; url: string; overlay?: string | undefined };
  layout: { align: 'left' | 'center'; width: 'narrow' | 'medium' | 'wide'; showProgressBar: boolean; logoUrl?: string | undefined };
  /** Styles per component type; keys are stored component types. */
  componentStyles: Record<string, ComponentStyle>;
}

/** One answer: `response` has `type`, `componentShapeVersion`, `headline` and the type's fields (responses/shapes.ts). */
export interface ResponseAnswer {
  questionId: string;
  response: { type: string; componentShapeVersion?: string; headline?: string; [field: string]: unknown };
}

export interface ResponseMeta {
  /** Where the response came from: the public page or the public JSON API. */
  source?: 'page' | 'api';
  userAgent?: string;
  /** The version of the form's definition the response started on, and is answered on until it finishes. */
  formVersion?: number;
  [key: string]: unknown;
}

/** The `version` of a response's format (the response object's `version`). */
export const RESPONSE_FORMAT_VERSION = '2.0';
