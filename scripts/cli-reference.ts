/**
 * A program's reference for the people who install it, made from its commander command tree at
 * build time (scripts/dist-linux.mjs): the man page from commander's own help (the same usage,
 * descriptions, defaults and environment variables `--help` prints), and bash and zsh completion
 * of its commands and options. Nothing here is written by hand, so the page and the completion
 * cannot drift from the program.
 */
import type { Command, Help, Option } from 'commander';

/** One command of the tree as the reference sees it: its words from the program down, and what it takes. */
interface CommandNode {
  /** e.g. ['provisioner', 'device', 'firmware']. */
  path: string[];
  command: Command;
  help: Help;
  /** Visible subcommands, commander's implicit `help` included. */
  subcommands: Command[];
  /** Its own visible options, --help included. */
  options: Option[];
}

function walk(command: Command, parentPath: string[] = []): CommandNode[] {
  const help = command.createHelp();
  const path = [...parentPath, command.name()];
  const subcommands = help.visibleCommands(command);
  const node: CommandNode = { path, command, help, subcommands, options: help.visibleOptions(command) };
  // The implicit `help` command is listed but has no tree of its own worth a section.
  const children = subcommands.filter((sub) => command.commands.includes(sub));
  return [node, ...children.flatMap((sub) => walk(sub, path))];
}

/** The option's spellings: `--long` and `-s`. */
function optionWords(option: Option): string[] {
  return [option.long, option.short].filter((word): word is string => typeof word === 'string');
}

/** Whether the option takes a value in the next word (`--port <port>`, `--level [n]`). */
function takesValue(option: Option): boolean {
  return option.required || option.optional;
}

// ---------------------------------------------------------------------------------------------
// The man page

/**
 * Text as roff source: backslashes and hyphens escaped (a hyphen in an option must stay a
 * hyphen-minus when copied from the page), anything outside ASCII as groff's Unicode escape, and
 * a line that would start with a control character made plain.
 */
export function roffText(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '\\') out += '\\e';
    else if (char === '-') out += '\\-';
    else if (code > 0x7e) out += `\\[u${code.toString(16).toUpperCase().padStart(4, '0')}]`;
    else out += char;
  }
  return out
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

/** A line of prose: collapsed to one paragraph (roff fills it anyway), empty lines dropped. */
function paragraph(text: string): string {
  return roffText(text.replace(/\s*\n\s*/g, ' ').trim());
}

function firstSentence(text: string): string {
  const line = text.split('\n')[0]!.trim();
  const end = line.search(/[.:](\s|$)/);
  return end === -1 ? line : line.slice(0, end);
}

function optionsSection(node: CommandNode): string[] {
  const lines: string[] = [];
  for (const option of node.options) {
    lines.push('.TP', `.B ${roffText(node.help.optionTerm(option))}`, paragraph(node.help.optionDescription(option)));
  }
  return lines;
}

export interface ManPageOptions {
  version: string;
  /** The page's date, YYYY-MM-DD (the build's, so a rebuild of the same sources is the same page). */
  date: string;
  /** Other pages, e.g. ['provisioner-service(8)']. */
  seeAlso?: string[];
  section?: string;
}

/** The program's man page (roff, section 1 unless told), every visible command in its own subsection. */
export function manPage(program: Command, options: ManPageOptions): string {
  const [root, ...commands] = walk(program);
  const name = program.name();
  const section = options.section ?? '1';
  const lines = [
    `.\\" Made from the ${name} command tree by scripts/cli-reference.ts; do not edit.`,
    `.TH ${roffText(name.toUpperCase())} ${section} ${options.date} "${roffText(name)} ${roffText(options.version)}" "${section === '8' ? 'System Administration' : 'User Commands'}"`,
    '.SH NAME',
    `${roffText(name)} \\- ${paragraph(firstSentence(program.description()))}`,
    '.SH SYNOPSIS',
    `.B ${roffText(name)}`,
    roffText(root!.help.commandUsage(program).slice(name.length + 1)),
    '.SH DESCRIPTION',
    ...program
      .description()
      .split(/\n\s*\n|\n/)
      .map((part, index) => (index === 0 ? paragraph(part) : `.PP\n${paragraph(part)}`)),
  ];
  if (root!.options.length > 0) lines.push('.SH OPTIONS', ...optionsSection(root!));
  if (commands.length > 0) {
    lines.push('.SH COMMANDS');
    for (const node of commands) {
      // commander's usage names the command from the program down: "provisioner device list [options]".
      lines.push(`.SS "${roffText(node.help.commandUsage(node.command)).replace(/"/g, '\\(dq')}"`);
      const description = node.help.commandDescription(node.command);
      if (description) lines.push(paragraph(description));
      for (const argument of node.help.visibleArguments(node.command)) {
        const text = node.help.argumentDescription(argument);
        if (text) lines.push('.TP', `.I ${roffText(node.help.argumentTerm(argument))}`, paragraph(text));
      }
      lines.push(...optionsSection(node));
    }
  }
  if (options.seeAlso && options.seeAlso.length > 0) {
    lines.push('.SH SEE ALSO');
    options.seeAlso.forEach((page, index) => {
      const [, pageName, pageSection] = /^(.+)\((\w+)\)$/.exec(page) ?? [page, page, ''];
      lines.push(`.BR ${roffText(pageName!)} (${pageSection})${index < options.seeAlso!.length - 1 ? ',' : ''}`);
    });
  }
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// Completion

/** What completion needs at each command path: the words that may come next. */
interface CompletionTable {
  /** path (words joined by spaces) → subcommand names */
  commands: Map<string, Array<{ name: string; summary: string }>>;
  /** path → option words usable there (its own and its ancestors', which commander also takes after a subcommand) */
  options: Map<string, Array<{ name: string; summary: string }>>;
  /** path → option words that take the next word as their value */
  valued: Map<string, string[]>;
}

function completionTable(program: Command): CompletionTable {
  const table: CompletionTable = { commands: new Map(), options: new Map(), valued: new Map() };
  const byPath = new Map<string, CommandNode>();
  for (const node of walk(program)) {
    const key = node.path.join(' ');
    byPath.set(key, node);
    const inherited = node.path.slice(0, -1).map((_, index) => byPath.get(node.path.slice(0, index + 1).join(' '))!);
    const usable = [
      ...inherited.flatMap((ancestor) =>
        ancestor.options.filter((option) => !option.long?.match(/^--(help|version)$/)),
      ),
      ...node.options,
    ];
    table.commands.set(
      key,
      node.subcommands.map((sub) => ({ name: sub.name(), summary: summary(sub.summary() || sub.description()) })),
    );
    table.options.set(
      key,
      usable.flatMap((option) =>
        optionWords(option).map((word) => ({ name: word, summary: summary(option.description) })),
      ),
    );
    table.valued.set(key, usable.filter(takesValue).flatMap(optionWords));
  }
  return table;
}

/** What a completion menu shows beside a word: the description's first sentence, at most about 70 characters. */
function summary(text: string): string {
  const line = text.split('\n')[0]!.trim();
  const end = line.search(/(?<!\be\.g|\bi\.e)[.;](\s|$)/);
  const sentence = end === -1 ? line : line.slice(0, end);
  if (sentence.length <= 72) return sentence;
  return `${sentence.slice(0, sentence.lastIndexOf(' ', 69))}...`;
}

/** A word for a shell's single quotes. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

function functionName(name: string): string {
  return `_${name.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/**
 * bash completion (bash 4 or later): `complete -F _NAME NAME`. The function walks the words before
 * the cursor to find the command path, skipping options and the value after an option that takes
 * one; then offers that path's subcommands, or its options when the word starts with '-', or
 * files after an option that takes a value.
 */
export function bashCompletion(program: Command): string {
  const table = completionTable(program);
  const name = program.name();
  const fn = functionName(name);
  const entries = (map: Map<string, Array<{ name: string }> | string[]>) =>
    [...map]
      .map(
        ([path, words]) =>
          `    [${shellQuote(path)}]=${shellQuote(words.map((word) => (typeof word === 'string' ? word : word.name)).join(' '))}`,
      )
      .join('\n');
  return `# bash completion for ${name}; made from its command tree by scripts/cli-reference.ts, do not edit.
${fn}() {
  local -A commands=(
${entries(table.commands)}
  )
  local -A options=(
${entries(table.options)}
  )
  local -A valued=(
${entries(table.valued)}
  )
  local cur=\${COMP_WORDS[COMP_CWORD]} cmdpath=${shellQuote(name)} word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if [[ $word == -* ]]; then
      # An option that takes a value takes the next word, unless it came as --option=value.
      [[ $word != *=* && " \${valued[$cmdpath]} " == *" $word "* ]] && ((i++))
    elif [[ -n \${commands[$cmdpath]+set} && " \${commands[$cmdpath]} " == *" $word "* ]]; then
      cmdpath="$cmdpath $word"
    fi
  done
  local prev=\${COMP_WORDS[COMP_CWORD-1]}
  if ((COMP_CWORD > 1)) && [[ " \${valued[$cmdpath]} " == *" $prev "* ]]; then
    compopt -o default 2>/dev/null
    COMPREPLY=()
  elif [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "\${options[$cmdpath]}" -- "$cur")
  else
    mapfile -t COMPREPLY < <(compgen -W "\${commands[$cmdpath]}" -- "$cur")
  fi
}
complete -F ${fn} ${name}
`;
}

/** A word and its summary for zsh's _describe: colons in the word escaped. */
function described(entry: { name: string; summary: string }): string {
  return shellQuote(`${entry.name.replace(/:/g, '\\:')}:${entry.summary}`);
}

/**
 * zsh completion (an autoloaded `_NAME` in a directory of $fpath): the same walk as bash's, offering
 * subcommands and options with their summaries through _describe, files after an option that takes
 * a value.
 */
export function zshCompletion(program: Command): string {
  const table = completionTable(program);
  const name = program.name();
  const fn = functionName(name);
  const cases = (map: Map<string, Array<{ name: string; summary: string }>>, variable: string) =>
    [...map]
      .map(([path, entries]) => `    ${shellQuote(path)}) ${variable}=(${entries.map(described).join(' ')}) ;;`)
      .join('\n');
  const valuedCases = [...table.valued]
    .filter(([, words]) => words.length > 0)
    .map(([path, words]) => `    ${shellQuote(path)}) valued=(${words.map(shellQuote).join(' ')}) ;;`)
    .join('\n');
  return `#compdef ${name}
# zsh completion for ${name}; made from its command tree by scripts/cli-reference.ts, do not edit.
${fn}_valued() {
  local -a valued
  case $1 in
${valuedCases}
  esac
  (( \${valued[(Ie)$2]} ))
}

${fn}() {
  local cmdpath=${shellQuote(name)} word i
  local -a cmds opts
  for (( i = 2; i < CURRENT; i++ )); do
    word=\${words[i]}
    if [[ $word == -* ]]; then
      [[ $word != *=* ]] && ${fn}_valued "$cmdpath" "$word" && (( i++ ))
    else
      ${fn}_commands "$cmdpath"
      (( \${cmds[(I)\${word//:/\\\\:}:*]} )) && cmdpath="$cmdpath $word"
    fi
  done
  if (( CURRENT > 2 )) && ${fn}_valued "$cmdpath" "\${words[CURRENT-1]}"; then
    _files
  elif [[ \${words[CURRENT]} == -* ]]; then
    ${fn}_options "$cmdpath"
    _describe -t options option opts
  else
    ${fn}_commands "$cmdpath"
    _describe -t commands command cmds
  fi
}

${fn}_commands() {
  cmds=()
  case $1 in
${cases(table.commands, 'cmds')}
  esac
}

${fn}_options() {
  opts=()
  case $1 in
${cases(table.options, 'opts')}
  esac
}

${fn} "$@"
`;
}
