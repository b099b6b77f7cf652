// Launches against moto_server with the AMI families whose user data bootstrap.h writes: the
// launch template EC2 stores carries it (base64 on the wire), merged with the class's own.
#include <string>
#include <variant>

#include "absl/strings/escaping.h"
#include "gtest/gtest.h"
#include "src/aws/test_moto_provider.h"
#include "src/aws/toml.h"

namespace karpenter::aws {
namespace {

class MotoUserData : public MotoProviderTest {
 protected:
  // The class as `family` over the fixture's image, resolved again and stored.
  void UseFamily(const std::string& family, std::string user_data) {
    node_class_.spec.ami_family = family;
    node_class_.spec.ami_selector_terms = {{.id = image_}};
    node_class_.spec.user_data = std::move(user_data);
    auto status = resolver_->Resolve(node_class_);
    ASSERT_TRUE(status.ok()) << status.status();
    node_class_.status = *status;
    StoreNodeClass();
  }
  // The decoded user data of the one launch template created.
  std::string LaunchedUserData() {
    auto launched = provider_->Create(Claim("default-a", {"m5.large"}));
    if (const auto* error = std::get_if<CloudError>(&launched)) {
      ADD_FAILURE() << "Create failed: " << error->message;
      return "";
    }
    const auto created = recorder_.Calls("CreateLaunchTemplate");
    EXPECT_EQ(created.size(), 1u);
    if (created.empty()) return "";
    std::string decoded;
    EXPECT_TRUE(absl::Base64Unescape(created[0].at("LaunchTemplateData.UserData"), &decoded));
    return decoded;
  }
};

TEST_F(MotoUserData, ABottlerocketLaunchTemplateCarriesTheMergedToml) {
  UseFamily("Bottlerocket", "[settings.host-containers.admin]\nenabled = true\n");
  const std::string user_data = LaunchedUserData();
  absl::StatusOr<TomlTable> parsed = ParseToml(user_data);
  ASSERT_TRUE(parsed.ok()) << parsed.status() << "\n" << user_data;
  const auto& settings = std::get<TomlTable>(parsed->at("settings").value);
  const auto& kubernetes = std::get<TomlTable>(settings.at("kubernetes").value);
  EXPECT_EQ(std::get<std::string>(kubernetes.at("cluster-name").value), kCluster);
  EXPECT_EQ(std::get<std::string>(kubernetes.at("api-server").value), "https://demo.eks.example");
  EXPECT_EQ(std::get<std::string>(kubernetes.at("cluster-certificate").value), "Q0E=");
  const auto& labels = std::get<TomlTable>(kubernetes.at("node-labels").value);
  EXPECT_EQ(std::get<std::string>(labels.at("karpenter.sh/nodepool").value), "default");
  EXPECT_TRUE(std::get<TomlTable>(kubernetes.at("node-taints").value)
                  .contains("karpenter.sh/unregistered"));
  // The class's own settings are kept.
  const auto& admin = std::get<TomlTable>(
      std::get<TomlTable>(settings.at("host-containers").value).at("admin").value);
  EXPECT_TRUE(std::get<bool>(admin.at("enabled").value));
  // Bottlerocket's two volumes: the OS on /dev/xvda, the data on /dev/xvdb.
  const auto created = recorder_.Calls("CreateLaunchTemplate");
  ASSERT_EQ(created.size(), 1u);
  EXPECT_EQ(created[0].at("LaunchTemplateData.BlockDeviceMapping.2.DeviceName"), "/dev/xvdb");
}

TEST_F(MotoUserData, AnAl2LaunchTemplateCallsBootstrapShAfterTheClassesScript) {
  UseFamily("AL2", "#!/bin/bash\necho before");
  const std::string user_data = LaunchedUserData();
  const size_t own = user_data.find("echo before");
  const size_t bootstrap = user_data.find("/etc/eks/bootstrap.sh 'demo' --apiserver-endpoint");
  ASSERT_NE(own, std::string::npos) << user_data;
  ASSERT_NE(bootstrap, std::string::npos) << user_data;
  EXPECT_LT(own, bootstrap);
}

TEST_F(MotoUserData, UserDataThatCannotBeMergedFailsTheLaunchNamingTheField) {
  UseFamily("Bottlerocket", "[settings\n");
  auto launched = provider_->Create(Claim("default-a", {"m5.large"}));
  const auto* error = std::get_if<CloudError>(&launched);
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(error->kind, CloudErrorKind::kCreateError);
  EXPECT_TRUE(error->message.starts_with("spec.userData: ")) << error->message;
  EXPECT_TRUE(recorder_.Calls("CreateLaunchTemplate").empty());
  EXPECT_TRUE(recorder_.Calls("CreateFleet").empty());
}

}  // namespace
}  // namespace karpenter::aws
