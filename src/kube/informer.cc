#include "src/kube/informer.h"

#include <algorithm>
#include <variant>

#include "absl/strings/str_cat.h"

namespace karpenter::kube {
namespace {

// Keeps the cache's memory of bad objects bounded.
constexpr size_t kMaxDecodeErrors = 100;
// A watch that ends sooner with no event did not get going (client-go's "very short watch").
constexpr int64_t kShortWatchMillis = 1000;

const std::string& ResourceVersionOf(const api::Object& object) {
  return std::visit(
      [](const auto& typed) -> const std::string& { return typed.metadata.resource_version; },
      object);
}

// The index key `object` files under in `index`, or "" when it has none.
std::string IndexValue(const api::Object& object) {
  if (const auto* pod = std::get_if<api::Pod>(&object)) return pod->spec.node_name;
  if (const auto* node = std::get_if<api::Node>(&object)) return node->spec.provider_id;
  if (const auto* claim = std::get_if<api::NodeClaim>(&object)) return claim->status.provider_id;
  return "";
}

}  // namespace

struct Informer::Waiter {
  std::mutex mu;
  std::condition_variable cv;
};

Informer::Informer(Client& client, Clock& clock, std::function<double()> uniform01,
                   InformerOptions options)
    : client_(client),
      clock_(clock),
      uniform01_(std::move(uniform01)),
      options_(std::move(options)),
      waiter_(std::make_shared<Waiter>()) {
  for (const std::string& kind : options_.kinds) kinds_[kind] = KindState{};
}

Informer::~Informer() { Stop(); }

void Informer::Start() {
  stopping_ = false;
  for (const std::string& kind : options_.kinds) {
    threads_.emplace_back([this, kind] { Run(kind); });
  }
}

void Informer::Stop() {
  stopping_ = true;
  { std::lock_guard<std::mutex> lock(waiter_->mu); }
  waiter_->cv.notify_all();
  for (std::thread& thread : threads_) thread.join();
  threads_.clear();
}

void Informer::Run(const std::string& kind) {
  int failures = 0;
  while (!stopping_) {
    absl::Status status = Step(kind);
    if (stopping_) return;
    if (status.ok()) {
      failures = 0;
      continue;
    }
    Pause(BackoffMillis(++failures));
  }
}

void Informer::Pause(int64_t millis) {
  auto fired = std::make_shared<bool>(false);
  std::shared_ptr<Waiter> waiter = waiter_;
  // The timer may outlive this wait (a Stop ends it early); it holds only shared state.
  clock_.After(millis, [waiter, fired] {
    {
      std::lock_guard<std::mutex> lock(waiter->mu);
      *fired = true;
    }
    waiter->cv.notify_all();
  });
  std::unique_lock<std::mutex> lock(waiter->mu);
  waiter->cv.wait(lock, [&] { return *fired || stopping_.load(); });
}

int64_t Informer::BackoffMillis(int failures) {
  int64_t base = options_.initial_backoff_millis;
  for (int i = 1; i < failures && base < options_.max_backoff_millis; ++i) base *= 2;
  base = std::min(base, options_.max_backoff_millis);
  // Full jitter on top, as wait.Jitter(d, 1.0): clients that failed together retry apart.
  return base + static_cast<int64_t>(static_cast<double>(base) * uniform01_());
}

absl::Status Informer::Step(const std::string& kind) {
  bool needs_list = true;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto state = kinds_.find(kind);
    if (state == kinds_.end()) {
      return absl::InvalidArgumentError(absl::StrCat("informer: kind ", kind, " is not cached"));
    }
    needs_list = state->second.needs_list;
  }
  return needs_list ? Relist(kind) : WatchOnce(kind);
}

absl::Status Informer::Relist(const std::string& kind) {
  std::vector<api::Object> all;
  std::vector<std::string> errors;
  std::string token;
  std::string resource_version;
  do {
    KP_ASSIGN_OR_RETURN(ListPage page, client_.List(kind, token, options_.list_page_size));
    for (api::Object& object : page.items) all.push_back(std::move(object));
    for (std::string& error : page.errors) errors.push_back(std::move(error));
    token = page.continue_token;
    resource_version = page.resource_version;
    // A partial list must not replace the cache: what it lacks would look deleted.
    if (!token.empty() && stopping_) return absl::CancelledError("informer stopping");
  } while (!token.empty());
  std::vector<ObjectKey> changed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::set<ObjectKey> listed;
    for (api::Object& object : all) {
      const ObjectKey key = KeyOf(object);
      listed.insert(key);
      if (PutLocked(key, std::move(object))) changed.push_back(key);
    }
    // What the cache holds and the list lacks was deleted while no watch was running.
    std::vector<ObjectKey> gone;
    for (auto it = objects_.lower_bound(ObjectKey{kind, "", ""});
         it != objects_.end() && it->first.kind == kind; ++it) {
      if (!listed.contains(it->first)) gone.push_back(it->first);
    }
    for (const ObjectKey& key : gone) {
      EraseLocked(key);
      changed.push_back(key);
    }
    for (std::string& error : errors) NoteDecodeErrorLocked(std::move(error));
    KindState& state = kinds_[kind];
    state.resource_version = resource_version;
    state.listed = true;
    state.needs_list = false;
  }
  Notify(changed);
  return absl::OkStatus();
}

absl::Status Informer::WatchOnce(const std::string& kind) {
  std::string resource_version;
  {
    std::lock_guard<std::mutex> lock(mu_);
    resource_version = kinds_[kind].resource_version;
  }
  const int timeout = static_cast<int>(options_.min_watch_timeout_seconds * (1 + uniform01_()));
  absl::Status outcome;
  int events = 0;
  const int64_t started = clock_.NowMillis();
  absl::Status status = client_.Watch(
      kind, resource_version, timeout,
      [&](const WatchEvent& event) {
        if (event.type != "ERROR") ++events;
        return Apply(kind, event, outcome);
      },
      stopping_);
  if (status.ok()) status = outcome;
  // A watch that ran (objects or bookmarks came, or a second passed) and then broke (a connection
  // cut, a load balancer, a restarting server) is resumed at once, as client-go's reflector does;
  // only a watch that could not get going backs off. Otherwise every cut would lengthen the
  // backoff, and under cuts every few seconds the cache would fall half a minute behind.
  if (!status.ok() && !absl::IsOutOfRange(status) &&
      (events > 0 || clock_.NowMillis() - started >= kShortWatchMillis)) {
    return absl::OkStatus();
  }
  if (absl::IsOutOfRange(status)) {
    // 410 Gone: the server has compacted past our version; only a new list is consistent.
    {
      std::lock_guard<std::mutex> lock(mu_);
      kinds_[kind].needs_list = true;
    }
    if (options_.on_expired) options_.on_expired(kind, std::string(status.message()));
    return absl::OkStatus();
  }
  return status;
}

bool Informer::Apply(const std::string& kind, const WatchEvent& event, absl::Status& outcome) {
  if (event.type == "ERROR") {
    outcome = event.error_code == 410
                  ? absl::OutOfRangeError(absl::StrCat("watch ", kind, ": 410 Gone"))
                  : absl::UnavailableError(
                        absl::StrCat("watch ", kind, ": error event, code ", event.error_code));
    return false;
  }
  const bool is_object_event =
      event.type == "ADDED" || event.type == "MODIFIED" || event.type == "DELETED";
  absl::StatusOr<api::Object> object =
      is_object_event ? DecodeObject(kind, event.object_json)
                      : absl::StatusOr<api::Object>(absl::NotFoundError("no object"));
  std::vector<ObjectKey> changed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!event.resource_version.empty()) kinds_[kind].resource_version = event.resource_version;
    if (is_object_event && !object.ok())
      NoteDecodeErrorLocked(std::string(object.status().message()));
    if (is_object_event && object.ok()) {
      const ObjectKey key = KeyOf(*object);
      const bool edited =
          event.type == "DELETED" ? EraseLocked(key) : PutLocked(key, *std::move(object));
      if (edited) changed.push_back(key);
    }
  }
  Notify(changed);
  return !stopping_;
}

bool Informer::PutLocked(const ObjectKey& key, api::Object object) {
  auto it = objects_.find(key);
  if (it != objects_.end()) {
    if (ResourceVersionOf(it->second) == ResourceVersionOf(object)) return false;
    IndexLocked(key, it->second, /*add=*/false);
    it->second = std::move(object);
  } else {
    it = objects_.emplace(key, std::move(object)).first;
  }
  IndexLocked(key, it->second, /*add=*/true);
  return true;
}

bool Informer::EraseLocked(const ObjectKey& key) {
  auto it = objects_.find(key);
  if (it == objects_.end()) return false;
  IndexLocked(key, it->second, /*add=*/false);
  objects_.erase(it);
  return true;
}

void Informer::IndexLocked(const ObjectKey& key, const api::Object& object, bool add) {
  std::map<std::string, std::set<ObjectKey>, std::less<>>* index = nullptr;
  if (std::holds_alternative<api::Pod>(object)) index = &pods_by_node_;
  if (std::holds_alternative<api::Node>(object)) index = &nodes_by_provider_;
  if (std::holds_alternative<api::NodeClaim>(object)) index = &nodeclaims_by_provider_;
  const std::string value = IndexValue(object);
  if (index == nullptr || value.empty()) return;
  if (add) {
    (*index)[value].insert(key);
    return;
  }
  auto entry = index->find(value);
  if (entry == index->end()) return;
  entry->second.erase(key);
  if (entry->second.empty()) index->erase(entry);
}

void Informer::NoteDecodeErrorLocked(std::string error) {
  if (decode_errors_.size() == kMaxDecodeErrors) decode_errors_.erase(decode_errors_.begin());
  decode_errors_.push_back(std::move(error));
}

void Informer::Notify(const std::vector<ObjectKey>& keys) {
  for (const ObjectKey& key : keys) {
    std::vector<std::shared_ptr<std::function<void(const ObjectKey&)>>> callbacks;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = callbacks_.find(key.kind);
      if (it == callbacks_.end()) continue;
      callbacks = it->second;
    }
    clock_.After(0, [callbacks = std::move(callbacks), key] {
      for (const auto& callback : callbacks) (*callback)(key);
    });
  }
}

bool Informer::Synced() const {
  std::lock_guard<std::mutex> lock(mu_);
  return std::all_of(kinds_.begin(), kinds_.end(),
                     [](const auto& entry) { return entry.second.listed; });
}

std::optional<api::Object> Informer::Get(const ObjectKey& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = objects_.find(key);
  if (it == objects_.end()) return std::nullopt;
  return it->second;
}

std::vector<api::Object> Informer::List(std::string_view kind) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<api::Object> out;
  for (auto it = objects_.lower_bound(ObjectKey{std::string(kind), "", ""});
       it != objects_.end() && it->first.kind == kind; ++it) {
    out.push_back(it->second);
  }
  return out;
}

std::vector<api::Pod> Informer::PodsOnNode(std::string_view node_name) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<api::Pod> out;
  auto entry = pods_by_node_.find(node_name);
  if (entry == pods_by_node_.end()) return out;
  for (const ObjectKey& key : entry->second) out.push_back(std::get<api::Pod>(objects_.at(key)));
  return out;
}

std::optional<api::Node> Informer::NodeByProviderId(std::string_view provider_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto entry = nodes_by_provider_.find(provider_id);
  if (entry == nodes_by_provider_.end()) return std::nullopt;
  return std::get<api::Node>(objects_.at(*entry->second.begin()));
}

std::optional<api::NodeClaim> Informer::NodeClaimByProviderId(std::string_view provider_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto entry = nodeclaims_by_provider_.find(provider_id);
  if (entry == nodeclaims_by_provider_.end()) return std::nullopt;
  return std::get<api::NodeClaim>(objects_.at(*entry->second.begin()));
}

void Informer::Watch(std::string_view kind, std::function<void(const ObjectKey&)> on_change) {
  std::lock_guard<std::mutex> lock(mu_);
  callbacks_[std::string(kind)].push_back(
      std::make_shared<std::function<void(const ObjectKey&)>>(std::move(on_change)));
}

std::vector<std::string> Informer::DecodeErrors() const {
  std::lock_guard<std::mutex> lock(mu_);
  return decode_errors_;
}

}  // namespace karpenter::kube
