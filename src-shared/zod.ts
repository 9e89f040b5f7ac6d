/**
 * The one zod import for the project: configures pt-BR messages once, so every schema that
 * reaches a person (IPC, CLI, model feedback) speaks Portuguese.
 */
import { z } from 'zod';

z.config(z.locales.pt());

export { z };
