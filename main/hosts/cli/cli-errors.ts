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

type Say = (match: RegExpMatchArray) => string;

/** For each code, the English shapes commander writes (without "error: ") and how to say each. */
const SHAPES: Readonly<Record<string, ReadonlyArray<readonly [RegExp, Say]>>> = {
  'commander.unknownCommand': [[/^unknown command '(.*)'$/s, (m) => t('cli:commander.unknownCommand', { name: m[1] })]],
  'commander.unknownOption': [[/^unknown option '(.*)'$/s, (m) => t('cli:commander.unknownOption', { flag: m[1] })]],
  'commander.missingArgument': [
    [/^missing required argument '(.*)'$/s, (m) => t('cli:commander.missingArgument', { name: m[1] })],
  ],
  'commander.optionMissingArgument': [
    [/^option '(.*)' argument missing$/s, (m) => t('cli:commander.optionMissingArgument', { flags: m[1] })],
  ],
  'commander.missingMandatoryOptionValue': [
    [/^required option '(.*)' not specified$/s, (m) => t('cli:commander.missingMandatoryOptionValue', { flags: m[1] })],
  ],
  'commander.excessArguments': [
    [
      /^too many arguments for '(.*)'\. Expected (\d+) arguments? but got (\d+)\.$/s,
      (m) => t('cli:commander.excessArgumentsFor', { command: m[1], expected: Number(m[2]), received: Number(m[3]) }),
    ],
    [
      /^too many arguments\. Expected (\d+) arguments? but got (\d+)\.$/s,
      (m) => t('cli:commander.excessArguments', { expected: Number(m[1]), received: Number(m[2]) }),
    ],
  ],
  'commander.invalidArgument': [
    [
      /^option '(.*)' argument '(.*)' is invalid\. Allowed choices are (.*)\.$/s,
      (m) => t('cli:commander.invalidOptionChoice', { flags: m[1], value: m[2], choices: m[3] }),
    ],
    [
      /^command-argument value '(.*)' is invalid for argument '(.*)'\. Allowed choices are (.*)\.$/s,
      (m) => t('cli:commander.invalidArgumentChoice', { value: m[1], name: m[2], choices: m[3] }),
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
    const said = `error: ${say(match)}`;
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
