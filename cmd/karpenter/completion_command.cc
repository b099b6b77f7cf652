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

// One `case` arm per command path, deepest first so "bench scheduling" wins over "bench".
void AddArms(const CLI::App& app, const std::string& path, std::vector<std::string>& arms) {
  for (const CLI::App* sub : Subcommands(app)) {
    AddArms(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), arms);
  }
  const std::string pattern = path.empty() ? "\"\"" : "\"" + path + "\"*";
  arms.push_back("    " + pattern + ") words=\"" + absl::StrJoin(Words(app), " ") + "\";;");
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

void AddCompletionCommand(CLI::App& app, std::string& shell) {
  CLI::App* cmd = app.add_subcommand(
      "completion", "Print a shell completion script: source <(karpenter completion bash)");
  cmd->add_option("shell", shell, "The shell")->check(CLI::IsMember({"bash"}))->required();
  cmd->callback([&app] { std::cout << BashCompletion(app); });
}

}  // namespace karpenter::cli
