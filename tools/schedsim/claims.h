// The resourceclaim controller's part of a pod's life (kube-controller-
// manager, pkg/controller/resourceclaim/controller.go, handleClaim): a pod
// claim from a ResourceClaimTemplate gets a ResourceClaim of its own, and
// the pod's status names it. Without it the scheduler waits ("ResourceClaim
// not created yet"); the kube-scheduler fork needs nothing, as a real
// cluster's controller manager does this.
#ifndef TOOLS_SCHEDSIM_CLAIMS_H_
#define TOOLS_SCHEDSIM_CLAIMS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "diag.h"
#include "input.h"
#include "json.h"

namespace schedsim {

class ClaimController {
 public:
  // Records a ResourceClaimTemplate, or a ResourceClaim a pod owns (a dump
  // holds the claims the controller made already); other kinds are ignored.
  void Add(const InputObject& obj);

  // For each spec.resourceClaims entry of `pod` (a named Pod at `loc`) with
  // resourceClaimTemplateName and no status.resourceClaimStatuses entry:
  // the claim the pod owns for it if the input has one, else a new one as
  // the controller makes it: generateName "<pod>-<claim>-" (both cut in
  // proportion past 57 characters), named with a NameSuffix, the
  // template's labels and annotations plus resource.kubernetes.io/pod-claim-name,
  // the pod as controller owner, the template's spec. The pod gets the
  // status entry, and a metadata.uid if it had none
  // ("schedsim/Pod/<ns>/<name>": owner references need one). A template the
  // input lacks is reported to `diag` and its claim left uncreated.
  // Returns the new claims.
  std::vector<JsonPtr> ForPod(cJSON* pod, const Loc& loc, Diagnostics& diag);

 private:
  std::map<std::string, const cJSON*> templates_;  // by "ns/name"
  // Claim names by "ns/owner uid/pod claim name".
  std::map<std::string, std::string> owned_;
  std::map<std::string, uint64_t> generated_;  // generateName counters, by "ns/generateName"
};

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_CLAIMS_H_
