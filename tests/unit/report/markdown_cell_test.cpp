// Text placed in Markdown stays what it was: a cell keeps its row, inline code keeps its backticks.
#include "report/markdown_cell.h"

#include <gtest/gtest.h>

namespace sf::report {
namespace {

TEST(MarkdownCell, EscapesPipesAndJoinsLines) { EXPECT_EQ(markdown_cell("a|b\nc\r\nd"), "a\\|b c  d"); }

TEST(MarkdownCode, PlainTextTakesOneBacktick) { EXPECT_EQ(markdown_code("SELECT 1"), "`SELECT 1`"); }

TEST(MarkdownCode, FenceOutnumbersTheLongestRunOfBackticks) {
  // Spark SQL quotes names with backticks: the span must not end at the first one.
  EXPECT_EQ(markdown_code("SELECT `a` FROM ``t`` x"), "```SELECT `a` FROM ``t`` x```");
  EXPECT_EQ(markdown_code("`a`"), "`` `a` ``");
}

TEST(MarkdownCode, StaysOnOneLine) { EXPECT_EQ(markdown_code("SELECT 1\n\nFROM t"), "`SELECT 1  FROM t`"); }

}  // namespace
}  // namespace sf::report
