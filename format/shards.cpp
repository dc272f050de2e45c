/// @file shards.cpp
/// @brief Reading stub files, opening a shard with deadlines, and splitting an index in shards.
#include "format/shards.h"

#include <charconv>
#include <fstream>

#include "common/build_dir.h"
#include "common/file_system.h"
#include "format/index_format.h"

namespace canon::index_format {
namespace fs = std::filesystem;
namespace {

/// HOST:PORT of a `remote` line (IPv6 hosts in brackets), or nothing when it is not one.
std::optional<ShardAddress> parse_tcp_address(std::string_view text) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  unsigned port = 0;
  const std::string_view digits = text.substr(colon + 1);
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
  if (error != std::errc() || end != digits.data() + digits.size() || digits.empty() || port == 0 || port > 65535)
    return std::nullopt;
  std::string_view host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host.empty()) return std::nullopt;
  ShardAddress shard;
  shard.kind = ShardAddress::Kind::kTcp;
  shard.host = std::string(host);
  shard.port = port;
  return shard;
}

}  // namespace

std::string ShardAddress::name() const {
  if (kind == Kind::kLocal) return path.string();
  const bool ipv6 = host.find(':') != std::string::npos;
  return (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

std::optional<fs::path> stub_file_at(const fs::path& path) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return path;
  if (fs::is_directory(path, ec) && fs::is_regular_file(path / "XAPIANDB", ec)) return path / "XAPIANDB";
  return std::nullopt;
}

Result<std::vector<ShardAddress>> read_stub(const fs::path& stub) {
  std::ifstream in(stub);
  if (!in) return Status::not_found("cannot read the stub file '" + stub.string() + "'");
  const fs::path base = fs::absolute(stub).parent_path();
  std::vector<ShardAddress> shards;
  std::size_t line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    const auto bad = [&](std::string_view why) {
      return Status::error(stub.string() + ":" + std::to_string(line_number) + ": " + std::string(why));
    };
    const std::size_t space = line.find(' ');
    const std::string type = line.substr(0, space);
    const std::string rest = space == std::string::npos ? "" : line.substr(space + 1);
    if (type == "auto" || type == "glass") {
      if (rest.empty()) return bad("'" + type + "' needs the path of a database");
      ShardAddress shard;
      shard.path = (base / rest).lexically_normal();  // an absolute `rest` stays itself
      shards.push_back(std::move(shard));
    } else if (type == "remote" && !rest.empty() && rest[0] == ':') {
      return bad("a shard reached through a program (remote :PROGRAM) is not supported; serve it with xapian-tcpsrv and list it as 'remote HOST:PORT'");
    } else if (type == "remote") {
      auto shard = parse_tcp_address(rest);
      if (!shard) return bad("'remote' needs HOST:PORT (a port from 1 to 65535)");
      shards.push_back(std::move(*shard));
    } else {
      return bad("not a shard canon opens: 'auto PATH' or 'remote HOST:PORT'");
    }
  }
  if (shards.empty()) return Status::error("the stub file '" + stub.string() + "' lists no shard");
  return shards;
}

Xapian::Database open_shard(const ShardAddress& shard, const ShardDeadlines& deadlines) {
  if (shard.kind == ShardAddress::Kind::kLocal) return Xapian::Database(shard.path.string());
  // Xapian takes milliseconds as useconds_t; 0 would mean "wait for ever".
  const auto ms = [](std::chrono::milliseconds d) { return static_cast<useconds_t>(std::max<long long>(1, d.count())); };
  return Xapian::Remote::open(shard.host, shard.port, ms(deadlines.answer), ms(deadlines.connect));
}

Status split_index(const fs::path& index_dir, unsigned parts, const fs::path& out_dir) {
  if (parts == 0) return Status::error("the number of shards must be at least 1");
  auto source = open_canon_index(index_dir);
  if (!source.ok()) return source.status();
  std::error_code ec;
  if (fs::exists(out_dir, ec)) {
    if (const Status is_index = check_canon_index(out_dir); !is_index.ok()) {
      return Status::failed_precondition("'" + out_dir.string() + "' exists and is not a canon index; not replacing it");
    }
  }
  auto build = BuildDirectory::create(out_dir, "sharding");
  if (!build.ok()) return build.status();
  BuildDirectory work = std::move(build).value();
  const IndexLayout layout{work.path()};
  try {
    const Xapian::Database& db = source.value();
    std::vector<Xapian::WritableDatabase> shards;
    for (unsigned part = 1; part <= parts; ++part) {
      shards.emplace_back(layout.shard(part).string(), Xapian::DB_CREATE);
    }
    for (auto key = db.metadata_keys_begin(); key != db.metadata_keys_end(); ++key) {
      const std::string value = db.get_metadata(*key);
      for (Xapian::WritableDatabase& shard : shards) shard.set_metadata(*key, value);
    }
    // The whole spelling table in every shard, as the metadata: over remote shards Xapian reads
    // spelling from one database only, so each holds every word (over local shards it sums the
    // frequencies: every word's scaled alike, the same suggestions).
    for (auto word = db.spellings_begin(); word != db.spellings_end(); ++word) {
      for (Xapian::WritableDatabase& shard : shards) shard.add_spelling(*word, word.get_termfreq());
    }
    for (auto post = db.postlist_begin(""); post != db.postlist_end(""); ++post) {
      const Xapian::docid id = *post;
      shards[(id - 1) % parts].replace_document((id - 1) / parts + 1, db.get_document(id));
    }
    for (Xapian::WritableDatabase& shard : shards) {
      shard.commit();
      shard.close();
    }
  } catch (const Xapian::Error& e) {
    return Status::io_error("cannot write the shards of '" + index_dir.string() + "': " + e.get_description());
  }
  if (Status listed = write_stub(layout, parts, "canon shard"); !listed.ok()) return listed;
  return work.commit();
}

Status write_stub(const IndexLayout& layout, unsigned parts, std::string_view made_by) {
  std::error_code ec;
  fs::create_directory(layout.xapian(), ec);
  std::string stub = "# The shards of this canon index (" + std::string(made_by) + "); Xapian reads it as one database.\n";
  for (unsigned part = 1; part <= parts; ++part) stub += "auto ../" + layout.shard(part).filename().string() + "\n";
  if (Status written = io::write_whole_file(layout.stub(), stub); !written.ok()) {
    return Status::io_error("cannot write '" + layout.stub().string() + "': " + written.message());
  }
  return Status::ok_status();
}

}  // namespace canon::index_format
