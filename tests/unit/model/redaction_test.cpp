// Redaction as Spark's Utils.redact does it: by key or by value, Spark's default pattern always,
// the application's own patterns too, in linear time whatever pattern a log brings.
#include "model/redaction.h"

#include <gtest/gtest.h>

namespace sf::model {
namespace {

std::string redacted(const Redaction& redaction, std::string key, std::string value) {
  KeyValues values = {{std::move(key), std::move(value)}};
  redaction.redact(values);
  return values[0].second;
}

TEST(Redaction, SparksDefaultPatternMatchesKeysCaseInsensitively) {
  const Redaction redaction;
  EXPECT_EQ(redacted(redaction, "spark.db.password", "hunter2"), kRedactedValue);
  EXPECT_EQ(redacted(redaction, "spark.hadoop.fs.s3a.SECRET.key", "x"), kRedactedValue);
  EXPECT_EQ(redacted(redaction, "spark.yarn.token.renewal", "x"), kRedactedValue);
  EXPECT_EQ(redacted(redaction, "fs.s3a.access.key", "AKIA"), kRedactedValue);
  EXPECT_EQ(redacted(redaction, "fs.s3a.accesskey", "AKIA"), kRedactedValue);
  EXPECT_EQ(redacted(redaction, "spark.executor.memory", "4g"), "4g");
  EXPECT_EQ(redacted(redaction, "spark.access_key", "kept"), "kept");  // [.]? is a dot or nothing
}

TEST(Redaction, AValueThatCarriesASecretIsRedactedWhateverItsKey) {
  const Redaction redaction;
  EXPECT_EQ(redacted(redaction, "sun.java.command", "SparkSubmit --conf spark.x.password=p app.py"), kRedactedValue);
  EXPECT_EQ(redacted(redaction, "sun.java.command", "SparkSubmit --class Main app.jar"),
            "SparkSubmit --class Main app.jar");
}

TEST(Redaction, TheApplicationsOwnPatternAddsToTheDefault) {
  std::vector<std::string> notes;
  // A narrower pattern than Spark's default: the default still applies.
  const Redaction redaction = Redaction::for_application({{"spark.redaction.regex", "(?i)mycorp"}}, notes);
  EXPECT_TRUE(notes.empty());
  EXPECT_EQ(redacted(redaction, "spark.MyCorp.apikey", "k"), kRedactedValue);
  EXPECT_EQ(redacted(redaction, "spark.db.password", "p"), kRedactedValue);
  EXPECT_EQ(redacted(redaction, "spark.app.name", "etl"), "etl");
}

TEST(Redaction, APatternRe2CannotRunIsNotedAndTheDefaultStillApplies) {
  std::vector<std::string> notes;
  const Redaction redaction =
      Redaction::for_application({{"spark.redaction.regex", "(?<=corp)key"}, {"spark.db.password", "p"}}, notes);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("spark.redaction.regex is not applied"), std::string::npos) << notes[0];
  EXPECT_EQ(redacted(redaction, "spark.db.password", "p"), kRedactedValue);
}

TEST(Redaction, AHostilePatternRunsInLinearTime) {
  // (a+)+$ against a long run of a's followed by b is exponential for a backtracking engine.
  std::vector<std::string> notes;
  const Redaction redaction = Redaction::for_application({{"spark.redaction.regex", "(a+)+$"}}, notes);
  const std::string value = std::string(200000, 'a') + "b";
  // A backtracking engine would not finish this; RE2 answers in one pass: no match, kept.
  EXPECT_EQ(redacted(redaction, "spark.some.setting", value), value);
  EXPECT_EQ(redacted(redaction, "spark.some.setting", "baaa"), kRedactedValue);
}

TEST(Redaction, FreeTextIsRedactedByTheApplicationsStringPattern) {
  std::vector<std::string> notes;
  const Redaction redaction =
      Redaction::for_application({{"spark.sql.redaction.string.regex", "password=[^ ]*"}}, notes);
  std::string plan = "Scan JDBC url=jdbc:x password=p4ss user=u";
  redaction.redact_text(plan);
  EXPECT_EQ(plan, "Scan JDBC url=jdbc:x *********(redacted) user=u");

  const Redaction without;
  std::string untouched = "Scan JDBC password=p4ss";
  without.redact_text(untouched);
  EXPECT_EQ(untouched, "Scan JDBC password=p4ss");  // Spark has no default string pattern
}

}  // namespace
}  // namespace sf::model
