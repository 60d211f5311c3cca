/** AiChatbot: shown as its text content; takes no answer. */
import { loose } from './content.ts';
import type { ComponentModule } from './module.ts';

export const aiChatbot: ComponentModule = { types: { AiChatbot: loose() } };
