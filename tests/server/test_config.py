"""The one configuration object: read once from the environment, checked once, documented from its fields."""

from pathlib import Path

import pytest

import server.config
from server.config import LOCAL_REDIS, Config, ConfigError, markdown
from workers.jobs import QUEUE

ROOT = Path(__file__).resolve().parents[2]


def test_the_defaults_without_any_variable():
    config = Config.from_env({})
    assert config.redis_url is None and config.service_redis_url == LOCAL_REDIS
    assert (config.prefix, config.queue, config.registration, config.long_polls) == ("cinch", QUEUE, "open", 1000)
    assert config.home == (Path.home() / ".cinch").resolve() and config.deals_dir is None


def test_variables_are_parsed_to_their_types_and_empty_ones_are_unset(tmp_path):
    config = Config.from_env(
        {
            "REDIS_URL": "redis://h:1/2",
            "CINCH_TABLE_MAX_LIVE": "7",
            "CINCH_HOME": str(tmp_path),
            "CINCH_ADMIN_TOKEN": "",
        }
    )
    assert config.service_redis_url == "redis://h:1/2" and config.table_max_live == 7
    assert config.home == tmp_path.resolve() and config.admin_token is None


def test_overrides_by_variable_or_field_name_win_over_the_environment():
    config = Config.from_env({"CINCH_PREFIX": "env"}, {"CINCH_PREFIX": "mine", "ADMIN_TOKEN": "a", "LONG_POLLS": 3})
    assert (config.prefix, config.admin_token, config.long_polls) == ("mine", "a", 3)
    with pytest.raises(ConfigError, match="NOT_A_SETTING"):
        Config.from_env({}, {"NOT_A_SETTING": 1})


@pytest.mark.parametrize(
    "environ, named",
    [
        ({"CINCH_LONG_POLLS": "many"}, "CINCH_LONG_POLLS must be a whole number"),
        ({"CINCH_TABLE_MAX_PER_BOT": "0"}, "CINCH_TABLE_MAX_PER_BOT must be a whole number above 0"),
        ({"CINCH_REGISTRATION": "sometimes"}, "CINCH_REGISTRATION must be open, closed or invite"),
        ({"CINCH_REGISTRATION": "invite"}, "CINCH_REGISTRATION=invite needs CINCH_INVITE_CODE"),
        ({"CINCH_LIMIT_EMPTY_POLLS": "fast"}, "CINCH_LIMIT_EMPTY_POLLS must be a rate"),
        ({"CINCH_BIND": "8000"}, "CINCH_BIND must be host:port"),
    ],
)
def test_a_bad_value_is_refused_naming_its_variable(environ, named):
    with pytest.raises(ConfigError, match=named):
        Config.from_env(environ)


def test_environ_round_trips_for_child_processes(tmp_path):
    config = Config.from_env(
        {"CINCH_HOME": str(tmp_path), "CINCH_ADMIN_TOKEN": "t", "CINCH_LIMIT_REGISTRATIONS": "1/hour"}
    )
    assert Config.from_env(config.environ()) == config


def test_every_field_names_its_variable_and_says_why():
    names = [f.metadata["env"] for f in server.config._fields()]
    assert len(set(names)) == len(names) and all(f.metadata["why"] for f in server.config._fields())


def test_the_settings_page_is_the_generators_output():
    """docs/settings.md cannot drift from the fields: regenerate it with
    ``python -m server.config --markdown > docs/settings.md``."""
    assert (ROOT / "docs" / "settings.md").read_text(encoding="utf-8") == markdown()


def test_a_redis_password_is_never_shown():
    from server.config import masked

    assert masked("rediss://:s3cret@redis.example:6380/0?ssl_ca_certs=/ca.pem") == (
        "rediss://***@redis.example:6380/0?ssl_ca_certs=/ca.pem"
    )
    assert masked("redis://user:pw@host/1") == "redis://***@host/1"
    assert masked("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
    assert masked("unix:///tmp/redis.sock") == "unix:///tmp/redis.sock"
