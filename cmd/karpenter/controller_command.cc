#include "cmd/karpenter/controller_command.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>

#include "absl/strings/escaping.h"
#include "cmd/karpenter/allocator.h"
#include "cmd/karpenter/real_clock.h"
#include "karpenter/logger.h"
#include "src/aws/aws_stack.h"
#include "src/aws/call_metrics.h"
#include "src/aws/node_class_resolver.h"
#include "src/controllers/reconciler.h"
#include "src/endpoints/http_endpoints.h"
#include "src/kube/client.h"
#include "src/kube/event_recorder.h"
#include "src/kube/informer.h"
#include "src/kube/leader_election.h"
#include "src/kube/real_clock.h"
#include "src/kube/request_metrics.h"
#include "src/kube/rest_config.h"
#include "src/kube/server_version.h"
#include "src/kube/transport.h"
#include "src/logging/json_logger.h"
#include "src/logging/log_outputs.h"
#include "src/manager/manager.h"
#include "src/metrics/karpenter_metrics.h"
#include "src/metrics/registry.h"
#include "src/settings/settings.h"

namespace karpenter::cli {
namespace {

// The build as karpenter_build_info and every log line's `commit` name it.
constexpr std::string_view kVersion = KP_VERSION;
#if defined(__aarch64__)
constexpr std::string_view kArch = "arm64";
#else
constexpr std::string_view kArch = "amd64";
#endif

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
  absl::StatusOr<logging::Level> level = logging::ParseLevel(s.log_level);
  if (!level.ok()) {
    err << "karpenter controller: " << level.status().message() << "\n";
    return 1;
  }
  // As zap's OutputPaths and ErrorOutputPaths; a path that cannot be opened stops the start.
  absl::StatusOr<logging::LogOutputs> outputs =
      logging::LogOutputs::Open("LOG_OUTPUT_PATHS", s.log_output_paths, out, err);
  if (!outputs.ok()) {
    err << "karpenter controller: " << outputs.status().message() << "\n";
    return 1;
  }
  absl::StatusOr<logging::LogOutputs> error_outputs =
      logging::LogOutputs::Open("LOG_ERROR_OUTPUT_PATHS", s.log_error_output_paths, out, err);
  if (!error_outputs.ok()) {
    err << "karpenter controller: " << error_outputs.status().message() << "\n";
    return 1;
  }
  logging::JsonLogger logger(*std::move(outputs), *std::move(error_outputs), *level, RealNow,
                             std::string(kVersion));
  // Before any thread starts: a long-running controller is judged by its resident memory.
  if (absl::Status allocator = ReturnFreedPagesAtOnce(); !allocator.ok()) {
    logger.Error("tuning the allocator", {{"error", std::string(allocator.message())}});
  }
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
  // Before the clients, which report every request to it from their own threads.
  std::vector<metrics::MetricDescription> catalog = metrics::KarpenterCatalog();
  for (std::vector<metrics::MetricDescription> more :
       {metrics::RuntimeCatalog(), metrics::OperatorCatalog(), metrics::ClientCatalog()}) {
    for (metrics::MetricDescription& description : more) catalog.push_back(std::move(description));
  }
  metrics::Registry registry(std::move(catalog));
  registry.Set("karpenter_build_info",
               {{"version", std::string(kVersion)},
                {"goversion", "gcc-" __VERSION__},
                {"goarch", std::string(kArch)},
                {"commit", std::string(kVersion)}},
               1);
  kube::Client client(*config,
                      kube::ClientLimits{.qps = static_cast<double>(s.kube_client_qps),
                                         .burst = static_cast<int>(s.kube_client_burst)},
                      *clock,
                      kube::ObservedTransport(kube::NewCurlTransport(*config), *clock,
                                              kube::MetricsObserver(registry)));
  std::uniform_real_distribution<double> uniform(0, 1);
  std::mutex random_mutex;  // the informer's threads draw their jitter concurrently
  // A 410 is logged as client-go's reflector does it (at V(4), our debug).
  kube::Informer informer(
      client, *clock,
      [&] {
        std::lock_guard<std::mutex> lock(random_mutex);
        return uniform(random);
      },
      kube::InformerOptions{
          .on_expired = [&logger](const std::string& kind, const std::string& error) {
            logger.Debug("watch closed, listing again", {{"kind", kind}, {"error", error}});
          }});
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
                           .kubernetes_version = *kubernetes_version,
                           .observer = aws::MetricsObserver(registry),
                           .metrics = &registry,
                           .reserved_capacity = s.feature_gates.reserved_capacity,
                           .dry_run = !s.disable_dry_run},
      informer, unavailable);
  if (!aws.ok()) {
    err << "karpenter controller: " << aws.status().message() << "\n";
    return 1;
  }
  for (const std::string& note : (*aws)->notes()) logger.Info(note, {});
  // As upstream's instance-type and pricing controllers at start: the first launch of a burst
  // would wait for them otherwise. One that fails here is read again at that launch.
  if (absl::Status read = (*aws)->RefreshInstanceTypes(); !read.ok()) {
    logger.Error("reading instance types", {{"error", std::string(read.message())}});
  }
  kube::ApiEventRecorder events(client, *clock, "karpenter");
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
                            .tag_instance =
                                [&aws](const std::string& provider_id,
                                       const controllers::NodeClaimTagging::InstanceTags& tags) {
                                  return (*aws)->TagInstance(provider_id, tags);
                                },
                            .collect_instance_profiles =
                                [&aws](const std::set<std::string>& in_use) {
                                  return (*aws)->CollectInstanceProfiles(in_use);
                                },
                            .logger = &logger},
      manager::OptionsFrom(s));

  // The controllers write metrics on their thread, the clients on theirs (the registry locks);
  // a scrape is rendered on the controllers' thread, between two reconciles.
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
      [&logger](const std::string& controller, const std::string& key, const absl::Status& error) {
        logger.Error(
            "Reconciler error",
            {{"controller", controller}, {"key", key}, {"error", std::string(error.message())}});
      });
  // Reconciles run on the loop's thread, as metrics are written there.
  controllers::SetReconcileObserver([&registry](const std::string& controller,
                                                std::string_view result, double seconds) {
    registry.Add("controller_runtime_reconcile_total",
                 {{"controller", controller}, {"result", std::string(result)}}, 1);
    if (result == "error") {
      registry.Add("controller_runtime_reconcile_errors_total", {{"controller", controller}}, 1);
    }
    registry.Observe("controller_runtime_reconcile_time_seconds", {{"controller", controller}},
                     seconds);
  });
  // The Lease is renewed on a thread of its own, as client-go's elector runs in its own
  // goroutine: on the controllers' thread a slow reconcile (a launch waits on CreateFleet) held
  // renewals back past the lease, and a standby led while this one still reconciled.
  std::unique_ptr<Clock> election_clock = kube::NewRealClock();
  std::unique_ptr<kube::LeaderElector> elector;
  const auto start = [&] {
    logger.Info("starting controllers", {});
    if (!s.disable_leader_election) {
      registry.Set("leader_election_master_status", {{"name", s.leader_election_name}}, 1);
    }
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
        client, *election_clock,
        kube::LeaderElectionConfig{.namespace_ = lease_namespace,
                                   .name = s.leader_election_name,
                                   .identity = Identity(random)},
        [&] { clock->After(0, start); }, [] { kill(getpid(), SIGUSR1); });
  }
  informer.Start();
  if (elector) elector->Start();
  logger.Info("starting manager",
              {{"metrics-port", std::to_string((*served)->metrics_port()), /*json=*/true},
               {"health-probe-port", std::to_string((*served)->health_port()), /*json=*/true}});

  int signal = 0;
  sigwait(&signals, &signal);
  const bool lost = signal == SIGUSR1;
  logger.Write(lost ? logging::Level::kError : logging::Level::kInfo,
               lost ? "leader election lost" : "shutting down", {});
  if (lost) {
    // Another controller may lead already: not one more write, not even from the reconcile
    // running now (upstream's manager does not wait for its reconciles either).
    out.flush();
    std::_Exit(1);
  }
  served->reset();  // no scrape posts to the loop any more
  if (elector) {
    // Attempts run on the election thread: stopping and releasing there cannot race one.
    auto released = std::make_shared<std::promise<void>>();
    std::future<void> done = released->get_future();
    election_clock->After(0, [&elector, released] {
      elector->Stop();
      (void)elector->Release();
      released->set_value();
    });
    done.wait_for(std::chrono::seconds(5));
  }
  election_clock.reset();  // its thread ends before the elector it runs
  informer.Stop();
  // The loop's thread goes before what its timers refer to; timers still pending never run.
  clock.reset();
  // Nothing reconciles any more: the hooks must not outlive the logger and registry they use.
  controllers::SetReconcileObserver(nullptr);
  controllers::SetReconcileErrorHandler(nullptr);
  return 0;
}

}  // namespace karpenter::cli
