#include "cmd/karpenter/controller_command.h"

#include <signal.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <future>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <random>

#include "absl/strings/escaping.h"
#include "cmd/karpenter/real_clock.h"
#include "karpenter/logger.h"
#include "nlohmann/json.hpp"
#include "src/aws/aws_stack.h"
#include "src/aws/node_class_resolver.h"
#include "src/controllers/reconciler.h"
#include "src/endpoints/http_endpoints.h"
#include "src/kube/client.h"
#include "src/kube/event_recorder.h"
#include "src/kube/informer.h"
#include "src/kube/leader_election.h"
#include "src/kube/real_clock.h"
#include "src/kube/rest_config.h"
#include "src/kube/server_version.h"
#include "src/kube/transport.h"
#include "src/manager/manager.h"
#include "src/metrics/karpenter_metrics.h"
#include "src/metrics/registry.h"
#include "src/settings/settings.h"

namespace karpenter::cli {
namespace {

// One JSON line with upstream's keys (zap's production encoder as Karpenter configures it).
void Log(std::ostream& out, std::string_view level, std::string_view message,
         const nlohmann::json& fields = nlohmann::json::object()) {
  nlohmann::json line = {{"level", std::string(level)},
                         {"time", RealNow().Rfc3339Nano()},
                         {"logger", "controller"},
                         {"message", std::string(message)}};
  for (const auto& [key, value] : fields.items()) line[key] = value;
  out << line.dump() << std::endl;
}

// The controllers' info lines as JSON lines; a field named after a kind is upstream's object
// reference ({"name": ...}).
class JsonLogger : public Logger {
 public:
  explicit JsonLogger(std::ostream& out) : out_(out) {}
  void Info(std::string_view message, const std::vector<LogField>& fields) override {
    nlohmann::json values = nlohmann::json::object();
    for (const LogField& field : fields) {
      const bool kind =
          !field.key.empty() && std::isupper(static_cast<unsigned char>(field.key[0]));
      values[field.key] =
          kind ? nlohmann::json{{"name", field.value}} : nlohmann::json(field.value);
    }
    Log(out_, "INFO", message, values);
  }

 private:
  std::ostream& out_;
};

bool WantsHelp(const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    if (arg == "-h" || arg == "--help" || arg == "-help") return true;
  }
  return false;
}

kube::GetEnv EnvOf(const std::map<std::string, std::string>& environment) {
  return [&environment](std::string_view name) -> std::optional<std::string> {
    auto it = environment.find(std::string(name));
    if (it == environment.end()) return std::nullopt;
    return it->second;
  };
}

// Leader identity as client-go's: the host name and a random suffix.
std::string Identity(std::mt19937_64& random) {
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) != 0) host[0] = '\0';
  return std::string(host[0] == '\0' ? "karpenter" : host) + "_" +
         std::to_string(random() % 1000000);
}

}  // namespace

void AddControllerCommand(CLI::App& app, ControllerOptions& options, int& exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "controller", "Run the in-cluster controller (upstream's settings; --help lists them)");
  // Upstream's flags (-flag, --flag=value) are read by the settings parser, not CLI11.
  cmd->prefix_command();
  cmd->set_help_flag();
  cmd->callback([cmd, &options, &exit_code] {
    options.args = cmd->remaining();
    std::map<std::string, std::string> environment;
    for (char** entry = environ; *entry != nullptr; ++entry) {
      const std::string text = *entry;
      const size_t equals = text.find('=');
      if (equals != std::string::npos)
        environment[text.substr(0, equals)] = text.substr(equals + 1);
    }
    exit_code = RunController(options.args, environment, std::cout, std::cerr);
  });
}

int RunController(const std::vector<std::string>& args,
                  const std::map<std::string, std::string>& environment, std::ostream& out,
                  std::ostream& err) {
  if (WantsHelp(args)) {
    out << settings::Usage();
    return 0;
  }
  absl::StatusOr<settings::Settings> parsed = settings::Parse(environment, args);
  if (!parsed.ok()) {
    err << "karpenter controller: " << parsed.status().message() << "\n";
    return 1;
  }
  const settings::Settings& s = *parsed;
  // The main thread only waits for a signal; SIGUSR1 means leadership was lost. Blocked before
  // any thread starts, so that every thread inherits the mask and only sigwait receives them: a
  // thread that did not block SIGUSR1 was killed by the one the elector sends when it releases
  // the Lease on SIGTERM (exit 138 instead of 0).
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  const kube::GetEnv env = EnvOf(environment);
  absl::StatusOr<kube::RestConfig> config = environment.contains("KUBERNETES_SERVICE_HOST")
                                                ? kube::LoadInClusterConfig(env)
                                                : kube::LoadKubeconfig(env);
  if (!config.ok()) {
    err << "karpenter controller: " << config.status().message() << "\n";
    return 1;
  }
  std::mt19937_64 random(static_cast<uint64_t>(RealMonotonicMillis()) ^
                         (static_cast<uint64_t>(getpid()) << 32));
  std::unique_ptr<Clock> clock = kube::NewRealClock();
  kube::Client client(*config,
                      kube::ClientLimits{.qps = static_cast<double>(s.kube_client_qps),
                                         .burst = static_cast<int>(s.kube_client_burst)},
                      *clock, kube::NewCurlTransport(*config));
  std::uniform_real_distribution<double> uniform(0, 1);
  std::mutex random_mutex;  // the informer's threads draw their jitter concurrently
  kube::Informer informer(client, *clock, [&] {
    std::lock_guard<std::mutex> lock(random_mutex);
    return uniform(random);
  });
  // Upstream asks the API server once at start and refuses to run without an answer.
  absl::StatusOr<std::string> kubernetes_version = kube::ServerMinorVersion(client);
  if (!kubernetes_version.ok()) {
    err << "karpenter controller: " << kubernetes_version.status().message() << "\n";
    return 1;
  }
  cloudprovider::UnavailableOfferings unavailable(
      *clock, [] { return manager::kUnavailableOfferingsTtlMillis; });
  absl::StatusOr<std::unique_ptr<aws::AwsStack>> aws = aws::AwsStack::Create(
      aws::AwsStackOptions{.cluster_name = s.cluster_name,
                           .cluster_endpoint = s.cluster_endpoint,
                           // Upstream takes the controller's own CA when none is set.
                           .cluster_ca_bundle = s.cluster_ca_bundle.empty()
                                                    ? absl::Base64Escape(config->ca_pem)
                                                    : s.cluster_ca_bundle,
                           .isolated_vpc = s.isolated_vpc,
                           .interruption_queue = s.interruption_queue,
                           .kubernetes_version = *kubernetes_version},
      informer, unavailable);
  if (!aws.ok()) {
    err << "karpenter controller: " << aws.status().message() << "\n";
    return 1;
  }
  for (const std::string& note : (*aws)->notes()) Log(out, "INFO", note);
  // As upstream's instance-type and pricing controllers at start: the first launch of a burst
  // would wait for them otherwise. One that fails here is read again at that launch.
  if (absl::Status read = (*aws)->RefreshInstanceTypes(); !read.ok()) {
    Log(out, "ERROR", "reading instance types", {{"error", std::string(read.message())}});
  }
  metrics::Registry registry(metrics::KarpenterCatalog());
  kube::ApiEventRecorder events(client, *clock, "karpenter");
  JsonLogger logger(out);
  manager::Manager manager(
      manager::ManagerSeams{.clock = *clock,
                            .reader = informer,
                            .writer = client,
                            .cloud = (*aws)->cloud(),
                            .recorder = events,
                            .metrics = registry,
                            .interruption_queue = (*aws)->interruption_queue(),
                            .unavailable = &unavailable,
                            .resolve_node_class =
                                [&aws](const api::EC2NodeClass& node_class) {
                                  return (*aws)->node_classes().Resolve(node_class);
                                },
                            .clean_up_node_class =
                                [&aws](const api::EC2NodeClass& node_class) {
                                  return (*aws)->CleanUpNodeClass(node_class);
                                },
                            .logger = &logger},
      manager::OptionsFrom(s));

  // Metrics are written on the controllers' thread: a scrape reads them there too.
  Clock& loop = *clock;
  absl::StatusOr<std::unique_ptr<endpoints::HttpEndpoints>> served =
      endpoints::HttpEndpoints::Start(
          endpoints::Ports{.metrics = static_cast<int>(s.metrics_port),
                           .health = static_cast<int>(s.health_probe_port)},
          endpoints::Handlers{
              .metrics =
                  [&loop, &registry] {
                    auto text = std::make_shared<std::promise<std::string>>();
                    std::future<std::string> rendered = text->get_future();
                    loop.After(0,
                               [text, &registry] { text->set_value(registry.PrometheusText()); });
                    if (rendered.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
                      return std::string("# controllers busy: try again\n");
                    }
                    return rendered.get();
                  },
              .healthy = [] { return true; },
              .ready = [&informer] { return informer.Synced(); }});
  if (!served.ok()) {
    err << "karpenter controller: " << served.status().message() << "\n";
    return 1;
  }

  controllers::SetReconcileErrorHandler(
      [&out](const std::string& controller, const std::string& key, const absl::Status& error) {
        Log(out, "ERROR", "Reconciler error",
            {{"controller", controller}, {"key", key}, {"error", std::string(error.message())}});
      });
  std::unique_ptr<kube::LeaderElector> elector;
  const auto start = [&] {
    Log(out, "INFO", "starting controllers", {{"commit", "karpenter-cpp"}});
    manager.Start();
  };
  if (s.disable_leader_election) {
    clock->After(0, start);
  } else {
    const std::string lease_namespace =
        !s.leader_election_namespace.empty()
            ? s.leader_election_namespace
            : (config->namespace_.empty() ? std::string("default") : config->namespace_);
    elector = std::make_unique<kube::LeaderElector>(
        client, *clock,
        kube::LeaderElectionConfig{.namespace_ = lease_namespace,
                                   .name = s.leader_election_name,
                                   .identity = Identity(random)},
        start, [] { kill(getpid(), SIGUSR1); });
  }
  informer.Start();
  if (elector) elector->Start();
  Log(out, "INFO", "starting manager",
      {{"metrics-port", (*served)->metrics_port()},
       {"health-probe-port", (*served)->health_port()}});

  int signal = 0;
  sigwait(&signals, &signal);
  const bool lost = signal == SIGUSR1;
  Log(out, lost ? "ERROR" : "INFO", lost ? "leader election lost" : "shutting down");
  served->reset();  // no scrape posts to the loop any more
  if (elector) {
    // Attempts run on the loop's thread: stopping and releasing there cannot race one.
    auto released = std::make_shared<std::promise<void>>();
    std::future<void> done = released->get_future();
    clock->After(0, [&elector, released, lost] {
      elector->Stop();
      if (!lost) (void)elector->Release();
      released->set_value();
    });
    done.wait_for(std::chrono::seconds(5));
  }
  informer.Stop();
  // The loop's thread goes before what its timers refer to; timers still pending never run.
  clock.reset();
  return lost ? 1 : 0;
}

}  // namespace karpenter::cli
