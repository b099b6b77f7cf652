// karpenter: the thin command-line driver. Subcommands live in their own files.
#include <iostream>

#include "CLI/CLI.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Karpenter C++: group-less node autoscaler for Amazon EKS"};
  app.require_subcommand(1);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
