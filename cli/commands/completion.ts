// onreco completion bash|zsh: a completion script made from the command tree itself, so it
// always offers the commands and options this version has.
import { Argument, Command } from 'commander';
import { type CliContext, examples } from './common';

interface Level {
  path: string;
  words: string[];
}

/** Each command path ('' for the top, 'stores', 'stores list' …) with its subcommands and options. */
function levelsOf(command: Command, path = ''): Level[] {
  const words = [...command.commands.map((sub) => sub.name()), ...command.options.map((option) => option.long).filter((long): long is string => Boolean(long)), '--help'];
  return [{ path, words }, ...command.commands.flatMap((sub) => levelsOf(sub, path ? `${path} ${sub.name()}` : sub.name()))];
}

export function bashScript(program: Command): string {
  const levels = levelsOf(program);
  const cases = levels.map((level) => `    "${level.path}") words="${level.words.join(' ')}" ;;`).join('\n');
  const paths = levels.filter((level) => level.path).map((level) => `"${level.path}"`).join('|');
  return `# onreco completion (bash): eval "$(onreco completion bash)"
_onreco_completion() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" key="" candidate words i
  for ((i = 1; i < COMP_CWORD; i++)); do
    candidate="\${key:+$key }\${COMP_WORDS[i]}"
    case "$candidate" in
      ${paths}) key="$candidate" ;;
    esac
  done
  case "$key" in
${cases}
    *) words="" ;;
  esac
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
}
complete -o default -F _onreco_completion onreco
`;
}

export function completionCommand(ctx: CliContext, program: () => Command): Command {
  const command = new Command('completion')
    .description('print a shell completion script')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh']))
    .action((shell: 'bash' | 'zsh') => {
      const script = bashScript(program());
      // zsh runs bash completion functions through bashcompinit.
      ctx.stdout(shell === 'zsh' ? `# onreco completion (zsh): eval "$(onreco completion zsh)"\nautoload -U +X bashcompinit && bashcompinit\n${script}` : script);
    });
  return examples(command, 'eval "$(onreco completion bash)"', 'onreco completion zsh > ~/.zfunc/_onreco');
}
