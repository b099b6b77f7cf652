#include "src/controllers/deletion_marks.h"

namespace karpenter::controllers {

void DeletionMarks::Mark(const std::vector<std::string>& provider_ids,
                         const std::vector<std::string>& replacements) {
  for (const std::string& id : provider_ids) {
    if (!id.empty()) provider_ids_.insert(id);
  }
  unobserved_.insert(replacements.begin(), replacements.end());
}

void DeletionMarks::Unmark(const std::vector<std::string>& provider_ids) {
  for (const std::string& id : provider_ids) provider_ids_.erase(id);
  // A rolled-back command's replacements are being deleted; they no longer hold a solve back.
  if (provider_ids_.empty()) unobserved_.clear();
}

bool DeletionMarks::ReplacementsObserved(const ClusterReader& reader) {
  std::erase_if(unobserved_, [&reader](const std::string& name) {
    return reader.Get(ObjectKey{"NodeClaim", "", name}).has_value();
  });
  return unobserved_.empty();
}

void DeletionMarks::Prune(const ClusterReader& reader) {
  std::erase_if(provider_ids_, [&reader](const std::string& id) {
    return !reader.NodeByProviderId(id).has_value() &&
           !reader.NodeClaimByProviderId(id).has_value();
  });
  if (provider_ids_.empty()) unobserved_.clear();
}

}  // namespace karpenter::controllers
