#include "cmd/karpenter/completion_command.h"

#include <iostream>
#include <vector>

#include "absl/strings/str_join.h"

namespace karpenter::cli {
namespace {

std::vector<const CLI::App*> Subcommands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App*) { return true; });
}

// Every spelling of every flag of `app` (--help included), then its subcommands' names.
std::vector<std::string> Words(const CLI::App& app) {
  std::vector<std::string> words;
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_snames()) words.push_back("-" + name);
    for (const std::string& name : option->get_lnames()) words.push_back("--" + name);
  }
  for (const CLI::App* sub : Subcommands(app)) words.push_back(sub->get_name());
  return words;
}

// `text` inside fish's single quotes.
std::string FishQuoted(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// One `case` arm per command path, deepest first so "bench scheduling" wins over "bench".
void AddArms(const CLI::App& app, const std::string& path, std::vector<std::string>& arms) {
  for (const CLI::App* sub : Subcommands(app)) {
    AddArms(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), arms);
  }
  const std::string pattern = path.empty() ? "\"\"" : "\"" + path + "\"*";
  arms.push_back("    " + pattern + ") words=\"" + absl::StrJoin(Words(app), " ") + "\";;");
}

// fish: each command's subcommands and long flags, offered once `condition` holds (the parent
// was typed); nested commands are told apart by their own name.
void AddFishLines(const CLI::App& app, const std::string& condition, std::string& out) {
  for (const CLI::App* sub : Subcommands(app)) {
    out += "complete -c karpenter -n '" + condition + "' -a " + sub->get_name() + " -d '" +
           FishQuoted(sub->get_description()) + "'\n";
    const std::string seen = "__fish_seen_subcommand_from " + sub->get_name();
    for (const CLI::Option* option : sub->get_options()) {
      for (const std::string& name : option->get_lnames()) {
        if (name == "output" || name == "filename") continue;  // declared for every command
        out += "complete -c karpenter -n '" + seen + "' -l " + name + "\n";
      }
    }
    AddFishLines(*sub, seen, out);
  }
}

}  // namespace

std::string BashCompletion(const CLI::App& app) {
  std::vector<std::string> arms;
  AddArms(app, "", arms);
  return "# bash completion for karpenter: source <(karpenter completion bash)\n"
         "_karpenter() {\n"
         "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} path='' i words\n"
         "  case $prev in\n"
         "    -o|--output) COMPREPLY=($(compgen -W 'json yaml text wide' -- \"$cur\")); return;;\n"
         "    -f|--filename|--from|--events|--metrics|--report|--asgs) return;;\n"
         "  esac\n"
         "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
         "    case ${COMP_WORDS[i]} in -*) ;; *) path=\"${path:+$path }${COMP_WORDS[i]}\";; esac\n"
         "  done\n"
         "  case $path in\n" +
         absl::StrJoin(arms, "\n") +
         "\n"
         "  esac\n"
         "  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
         "}\n"
         "complete -o default -F _karpenter karpenter\n";
}

std::string ZshCompletion(const CLI::App& app) {
  // zsh runs bash completion functions through bashcompinit, so both shells share one script
  // and cannot drift apart.
  return "#compdef karpenter\n"
         "# zsh completion for karpenter: source <(karpenter completion zsh)\n"
         "autoload -U +X compinit && compinit\n"
         "autoload -U +X bashcompinit && bashcompinit\n" +
         BashCompletion(app);
}

std::string FishCompletion(const CLI::App& app) {
  std::string out =
      "# fish completion for karpenter: karpenter completion fish | source\n"
      "complete -c karpenter -f\n"
      "complete -c karpenter -s o -l output -x -a 'json yaml text wide'\n"
      "complete -c karpenter -s f -l filename -F -r\n";
  AddFishLines(app, "__fish_use_subcommand", out);
  return out;
}

void AddCompletionCommand(CLI::App& app, std::string& shell) {
  CLI::App* cmd =
      app.add_subcommand("completion", "Print a shell completion script for bash, zsh or fish");
  cmd->add_option("shell", shell, "The shell: bash, zsh or fish")
      ->check(CLI::IsMember({"bash", "zsh", "fish"}))
      ->required();
  cmd->footer(
      "Examples:\n"
      "  source <(karpenter completion bash)        # bash, this shell only\n"
      "  source <(karpenter completion zsh)         # zsh\n"
      "  karpenter completion fish | source         # fish\n"
      "  karpenter completion bash > /etc/bash_completion.d/karpenter\n"
      "Exit codes: 0 printed; 1 an unknown shell");
  cmd->callback([&app, &shell] {
    if (shell == "zsh") {
      std::cout << ZshCompletion(app);
    } else if (shell == "fish") {
      std::cout << FishCompletion(app);
    } else {
      std::cout << BashCompletion(app);
    }
  });
}

}  // namespace karpenter::cli
