/** Recaptcha and TurnstileWidget: bot checks; take no answer and record nothing. */
import { loose, shortText } from './content.ts';
import type { ComponentModule } from './module.ts';

export const captchas: ComponentModule = {
  types: { Recaptcha: loose({ siteKey: shortText.optional() }), TurnstileWidget: loose({ siteKey: shortText.optional() }) },
  // Rendered as nothing: the widgets need the provider's script, which the page's CSP does not load.
  render: () => '',
};
