// The History Server library's names this front end serves over HTTP, under sf::server: the
// request and answer types, and the stage task tables the dashboard's stage page shares with it.
#pragma once

#include "history_server/rest_path.h"
#include "history_server/rest_router.h"
#include "history_server/stage_tasks.h"

namespace sf::server {

using history_server::BodySink;
using history_server::QueryParams;
using history_server::RestResponse;
using history_server::RestRouter;
using history_server::StageTaskCache;
using history_server::StageTaskCacheOptions;
using history_server::StageTasks;
using history_server::TaskRecord;

}  // namespace sf::server
