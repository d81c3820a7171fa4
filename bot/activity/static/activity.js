// Parlor's Discord Activity: Discord's handshake and sign-in through its Embedded App SDK, then the web page's
// own script (parlor.js) draws the table of the channel from this server, through the Activity's own origin.
"use strict";
(async function () {
  const body = document.body;
  const $ = (id) => document.getElementById(id);
  const clientId = body.dataset.clientId;
  // Inside Discord, the Activity's own server is reached through Discord's proxy at /.proxy/ (bot.activity.server).
  const root = location.hostname.endsWith(".discordsays.com") || location.pathname.startsWith("/.proxy/")
    ? "/.proxy" : "";

  function refuse(message) {
    const refusal = $("refusal");
    refusal.textContent = message;
    refusal.hidden = false;
    $("connection").textContent = "Not connected.";
  }

  let sdk;
  try {
    sdk = new DiscordEmbeddedAppSdk.DiscordSDK(clientId, { disableConsoleLogOverride: true });
  } catch (error) {
    refuse("This is Parlor's Discord Activity: open it in Discord, with Play in Discord on a game's table.");
    return;
  }
  await sdk.ready();
  $("connection").textContent = "Signing in with Discord…";
  let code;
  try {
    ({ code } = await sdk.commands.authorize({
      client_id: clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
    }));
  } catch (error) {
    refuse("Parlor needs to know who you are to show your table: open the Activity again and press Authorize.");
    return;
  }
  let signed;
  try {
    const answer = await fetch(`${root}/activity/api/session`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code, instance_id: sdk.instanceId, channel_id: sdk.channelId, guild_id: sdk.guildId }),
    });
    signed = await answer.json();
    if (!answer.ok) { refuse(signed.error || "Parlor refused this sign-in."); return; }
  } catch (error) {
    refuse("Could not reach Parlor: check your connection and open the Activity again.");
    return;
  }
  let auth;
  try {
    auth = await sdk.commands.authenticate({ access_token: signed.access_token });
  } catch (error) {
    refuse("Discord did not confirm your sign-in: open the Activity again.");
    return;
  }
  if (!auth || !auth.user || auth.user.id !== signed.user) {
    refuse("Discord signed you in as someone else than Parlor was told: open the Activity again.");
    return;
  }
  body.dataset.base = `${root}/activity/api/${signed.pass}`;
  body.dataset.kind = signed.playing ? "personal" : "public";
  // The payload's pictures are named relative to the table's address.
  const base = document.createElement("base");
  base.href = `${body.dataset.base}/`;
  document.head.appendChild(base);
  const script = document.createElement("script");
  script.src = `${root}/static/parlor.js`;
  document.body.appendChild(script);
})();
