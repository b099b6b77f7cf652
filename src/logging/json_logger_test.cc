#include "src/logging/json_logger.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <streambuf>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace karpenter::logging {
namespace {

struct Fixture {
  std::ostringstream out;
  api::Time now = api::Time::FromUnixNanos(1'719'023'056'114'000'000);  // 2024-06-22T02:24:16.114Z
  JsonLogger Logger(Level level) {
    return JsonLogger(
        out, level, [this] { return now; }, "abc1234");
  }
  std::vector<nlohmann::json> Lines() const {
    std::vector<nlohmann::json> lines;
    std::istringstream in(out.str());
    for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
    return lines;
  }
};

TEST(JsonLogger, WritesZapsKeysObjectReferencesAndEmbeddedValues) {
  Fixture f;
  JsonLogger logger = f.Logger(Level::kInfo);
  logger.Info("created nodeclaim", {{"controller", "provisioner"},
                                    {"NodePool", "default"},
                                    {"NodeClaim", "default-abcde"},
                                    {"requests", R"({"cpu":"1","pods":"3"})", /*json=*/true},
                                    {"instance-types", "c6a.large, m5.large and 3 other(s)"}});
  ASSERT_EQ(f.Lines().size(), 1u);
  const nlohmann::json line = f.Lines()[0];
  EXPECT_EQ(line["level"], "INFO");
  EXPECT_EQ(line["time"], "2024-06-22T02:24:16.114Z");
  EXPECT_EQ(line["logger"], "controller");
  EXPECT_EQ(line["message"], "created nodeclaim");
  EXPECT_EQ(line["commit"], "abc1234");
  EXPECT_EQ(line["controller"], "provisioner");
  EXPECT_EQ(line["NodePool"], (nlohmann::json{{"name", "default"}}));
  EXPECT_EQ(line["NodeClaim"], (nlohmann::json{{"name", "default-abcde"}}));
  EXPECT_EQ(line["requests"], (nlohmann::json{{"cpu", "1"}, {"pods", "3"}}));
  EXPECT_EQ(line["instance-types"], "c6a.large, m5.large and 3 other(s)");
  // zap's key order: level, time, logger, message first.
  EXPECT_EQ(f.out.str().rfind(R"({"level":"INFO","time":"2024-06-22T02:24:16.114Z",)", 0), 0u);
}

TEST(JsonLogger, TheLevelDecidesWhatIsWritten) {
  for (auto [level, expected] : std::vector<std::pair<Level, size_t>>{
           {Level::kDebug, 3}, {Level::kInfo, 2}, {Level::kError, 1}}) {
    Fixture f;
    JsonLogger logger = f.Logger(level);
    logger.Debug("computing scheduling decision for provisionable pod(s)", {});
    logger.Info("found provisionable pod(s)", {});
    logger.Error("Reconciler error", {{"error", "throttled"}});
    EXPECT_EQ(f.Lines().size(), expected) << f.out.str();
    EXPECT_EQ(f.Lines().back()["level"], "ERROR");
  }
}

TEST(JsonLogger, ParseLevelTakesUpstreamsNamesOnly) {
  EXPECT_EQ(*ParseLevel("debug"), Level::kDebug);
  EXPECT_EQ(*ParseLevel("info"), Level::kInfo);
  EXPECT_EQ(*ParseLevel("warn"), Level::kWarn);
  EXPECT_EQ(*ParseLevel("error"), Level::kError);
  EXPECT_EQ(ParseLevel("INFO").status().message(), "invalid LOG_LEVEL \"INFO\"");
}

TEST(JsonLogger, SamplesARepeatedMessageAfterTheFirstHundredEachSecond) {
  Fixture f;
  JsonLogger logger = f.Logger(Level::kInfo);
  for (int i = 0; i < 350; ++i) logger.Info("tainted node", {{"Node", std::to_string(i)}});
  logger.Info("deleted node", {});  // another message is counted on its own
  // 100, then the 200th, 300th: 102 of 350; plus the other message.
  EXPECT_EQ(f.Lines().size(), 103u);
  EXPECT_EQ(logger.dropped(), 248u);
  f.now = f.now + api::Duration::FromSeconds(1);
  logger.Info("tainted node", {});
  EXPECT_EQ(f.Lines().size(), 104u) << "a new second starts over";
}

TEST(JsonLogger, HostileFieldTextNeverBreaksTheLine) {
  Fixture f;
  JsonLogger logger = f.Logger(Level::kInfo);
  logger.Info("tainted node", {{"Node", std::string("bad\xff\xfe\nname\"")},
                               {"requests", "{not json", /*json=*/true}});
  ASSERT_EQ(f.Lines().size(), 1u);
  EXPECT_EQ(f.Lines()[0]["requests"], "{not json");
  EXPECT_EQ(f.out.str().find('\n'), f.out.str().size() - 1) << "one line";
}

TEST(JsonLogger, NamesTheCallerOnlyAtDebugLevel) {
  Fixture f;
  JsonLogger debug = f.Logger(Level::kDebug);
  Logger& seam = debug;
  const int line = __LINE__ + 1;
  seam.Info("found provisionable pod(s)", {});
  ASSERT_EQ(f.Lines().size(), 1u);
  EXPECT_EQ(f.Lines()[0]["caller"], "logging/json_logger_test.cc:" + std::to_string(line));
  // zap's order: caller after logger, before message.
  EXPECT_NE(f.out.str().find(R"("logger":"controller","caller":)"), std::string::npos);

  Fixture g;
  JsonLogger info = g.Logger(Level::kInfo);
  info.Info("found provisionable pod(s)", {});
  ASSERT_EQ(g.Lines().size(), 1u);
  EXPECT_FALSE(g.Lines()[0].contains("caller"));
}

// A stream every write to fails, as a full disk or a closed pipe does.
class FailingBuffer : public std::streambuf {
 protected:
  int overflow(int) override { return traits_type::eof(); }
};

TEST(JsonLogger, ALineAnOutputCannotTakeIsReportedOnTheErrorOutputs) {
  std::ostringstream good, errors;
  FailingBuffer full;
  std::ostream broken(&full);
  JsonLogger logger(
      LogOutputs({&good, &broken}), LogOutputs({&errors}), Level::kInfo,
      [] { return api::Time::FromUnixSeconds(0); }, "abc1234");
  logger.Info("launched nodeclaim", {});
  EXPECT_NE(good.str().find("launched nodeclaim"), std::string::npos);
  EXPECT_EQ(errors.str(),
            "1970-01-01T00:00:00.000Z write error: cannot write a log line to output 1\n");
  logger.Info("registered nodeclaim", {});
  EXPECT_NE(good.str().find("registered nodeclaim"), std::string::npos) << "the good one goes on";
}

TEST(LogOutputs, StdoutStderrAndFilesEachGetEveryLine) {
  std::ostringstream out, err;
  const std::string file = testing::TempDir() + "/log_outputs_test.log";
  std::remove(file.c_str());
  absl::StatusOr<LogOutputs> outputs =
      LogOutputs::Open("LOG_OUTPUT_PATHS", "stdout,stderr,file://" + file, out, err);
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  EXPECT_EQ(outputs->size(), 3u);
  EXPECT_TRUE(outputs->WriteLine("one").empty());
  EXPECT_TRUE(outputs->WriteLine("two").empty());
  EXPECT_EQ(out.str(), "one\ntwo\n");
  EXPECT_EQ(err.str(), "one\ntwo\n");
  std::ifstream written(file);
  std::stringstream content;
  content << written.rdbuf();
  EXPECT_EQ(content.str(), "one\ntwo\n");

  // Files are appended to, as zap opens them.
  absl::StatusOr<LogOutputs> again = LogOutputs::Open("LOG_OUTPUT_PATHS", file, out, err);
  ASSERT_TRUE(again.ok());
  again->WriteLine("three");
  std::ifstream reread(file);
  std::stringstream appended;
  appended << reread.rdbuf();
  EXPECT_EQ(appended.str(), "one\ntwo\nthree\n");
}

TEST(LogOutputs, AnEmptyOrUnwritablePathIsAnErrorNamingTheSetting) {
  std::ostringstream out, err;
  EXPECT_EQ(LogOutputs::Open("LOG_OUTPUT_PATHS", "stdout,", out, err).status().message(),
            "LOG_OUTPUT_PATHS: empty output path in \"stdout,\"");
  EXPECT_EQ(LogOutputs::Open("LOG_ERROR_OUTPUT_PATHS", "/nonexistent-dir/x.log", out, err)
                .status()
                .message(),
            "LOG_ERROR_OUTPUT_PATHS: cannot open \"/nonexistent-dir/x.log\" for writing");
}

TEST(Iso8601Millis, KeepsThreeDigitsOfMilliseconds) {
  EXPECT_EQ(Iso8601Millis(api::Time::FromUnixSeconds(0)), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(Iso8601Millis(api::Time::FromUnixNanos(1'999'999'999)), "1970-01-01T00:00:01.999Z");
}

}  // namespace
}  // namespace karpenter::logging
