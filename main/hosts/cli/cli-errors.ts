import { Command } from 'commander';
import { t } from './cli-language';

/**
 * Commander's own errors (unknown command, unknown option, a missing argument or option, too many
 * arguments, a value not among an option's choices) in the run's language.
 *
 * Commander writes them in English and names each by a code ('commander.unknownCommand', …), which
 * it hands to Command.error() with the English message. The code says which message of the cli
 * catalog to use; the values (the command typed, the option's flags) are read back from the
 * English message, whose shape for each code is fixed in commander's source. A message whose
 * shape is not recognised (a commander upgrade that rewords one) stays English rather than being
 * said wrong. The exit code and the code itself never change: main.ts maps them as before.
 */

/** Commander's "did you mean" suggestion, on a line of its own after the message. */
const SUGGESTION = /\n\(Did you mean (one of )?(.+)\?\)$/s;

/** Says one shape, given the text of its (up to three) groups. */
type Say = (groups: readonly [string, string, string]) => string;

/** For each code, the English shapes commander writes (without "error: ") and how to say each. */
const SHAPES: Readonly<Record<string, ReadonlyArray<readonly [RegExp, Say]>>> = {
  'commander.unknownCommand': [[/^unknown command '(.*)'$/s, ([name]) => t('cli:commander.unknownCommand', { name })]],
  'commander.unknownOption': [[/^unknown option '(.*)'$/s, ([flag]) => t('cli:commander.unknownOption', { flag })]],
  'commander.missingArgument': [
    [/^missing required argument '(.*)'$/s, ([name]) => t('cli:commander.missingArgument', { name })],
  ],
  'commander.optionMissingArgument': [
    [/^option '(.*)' argument missing$/s, ([flags]) => t('cli:commander.optionMissingArgument', { flags })],
  ],
  'commander.missingMandatoryOptionValue': [
    [/^required option '(.*)' not specified$/s, ([flags]) => t('cli:commander.missingMandatoryOptionValue', { flags })],
  ],
  'commander.excessArguments': [
    [
      /^too many arguments for '(.*)'\. Expected (\d+) arguments? but got (\d+)\.$/s,
      ([command, expected, received]) =>
        t('cli:commander.excessArgumentsFor', { command, expected: Number(expected), received: Number(received) }),
    ],
    [
      /^too many arguments\. Expected (\d+) arguments? but got (\d+)\.$/s,
      ([expected, received]) =>
        t('cli:commander.excessArguments', { expected: Number(expected), received: Number(received) }),
    ],
  ],
  'commander.invalidArgument': [
    [
      /^option '(.*)' argument '(.*)' is invalid\. Allowed choices are (.*)\.$/s,
      ([flags, value, choices]) => t('cli:commander.invalidOptionChoice', { flags, value, choices }),
    ],
    [
      /^command-argument value '(.*)' is invalid for argument '(.*)'\. Allowed choices are (.*)\.$/s,
      ([value, name, choices]) => t('cli:commander.invalidArgumentChoice', { value, name, choices }),
    ],
  ],
};

/** The suggestion line in the run's language. */
function suggestionText(oneOf: boolean, names: string): string {
  return oneOf
    ? t('cli:commander.didYouMeanOneOf', { candidates: names })
    : t('cli:commander.didYouMean', { candidate: names });
}

/**
 * Commander's error `message` (as it passes it to Command.error, "error: " first) in the run's
 * language, or the message unchanged when its code or shape is not one we know. The "error: "
 * prefix stays in every language, as on the CLI's own errors, so a script can grep it.
 */
export function commanderErrorText(message: string, code: string | undefined): string {
  const shapes = code === undefined ? undefined : SHAPES[code];
  if (!shapes || !message.startsWith('error: ')) return message;
  const body = message.slice('error: '.length);
  const suggestion = SUGGESTION.exec(body);
  const sentence = suggestion ? body.slice(0, suggestion.index) : body;
  for (const [shape, say] of shapes) {
    const match = shape.exec(sentence);
    if (!match) continue;
    const [first = '', second = '', third = ''] = match.slice(1);
    const said = `error: ${say([first, second, third])}`;
    return suggestion ? `${said}\n${suggestionText(suggestion[1] !== undefined, suggestion[2] ?? '')}` : said;
  }
  return message;
}

/**
 * A commander Command whose own errors are said in the run's language. Subcommands are made by
 * createCommand, so every command of the tree (and the `help` command) is one too.
 */
export class CommandInRunLanguage extends Command {
  override createCommand(name?: string): Command {
    return new CommandInRunLanguage(name);
  }

  override error(message: string, errorOptions?: { code?: string; exitCode?: number }): never {
    return super.error(commanderErrorText(message, errorOptions?.code), errorOptions);
  }
}
