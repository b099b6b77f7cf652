#!/usr/bin/env python3
"""What e2e_article.sh asks of the AWS account in moto (test glue, boto3).

  e2e_aws.py ENDPOINT instances
      one line per instance: ID STATE LIFECYCLE TYPE ZONE TAGS (TAGS as key=value,...; sorted)
  e2e_aws.py ENDPOINT user-data
      the user data of every launch template's latest version, decoded, one template after another
  e2e_aws.py ENDPOINT interrupt QUEUE INSTANCE-ID...
      sends one EC2 Spot Instance Interruption Warning per instance to the SQS queue QUEUE, as
      EventBridge's rule would forward it
  e2e_aws.py ENDPOINT fleets
      one line per CreateFleet call moto answered (moto keeps every fleet, instant ones too):
      FLEET-ID INSTANCES
"""
import base64
import datetime
import json
import sys
import uuid

import boto3

REGION = "us-east-1"


def client(endpoint, service):
    return boto3.client(service, endpoint_url=endpoint, region_name=REGION,
                        aws_access_key_id="testing", aws_secret_access_key="testing")


def instances(endpoint):
    pages = client(endpoint, "ec2").get_paginator("describe_instances").paginate()
    for page in pages:
        for reservation in page["Reservations"]:
            for instance in reservation["Instances"]:
                tags = ",".join(sorted(f"{tag['Key']}={tag['Value']}"
                                       for tag in instance.get("Tags", [])))
                print(instance["InstanceId"], instance["State"]["Name"],
                      instance.get("InstanceLifecycle", "on-demand"), instance["InstanceType"],
                      instance["Placement"]["AvailabilityZone"], tags or "-")


def user_data(endpoint):
    ec2 = client(endpoint, "ec2")
    for template in ec2.describe_launch_templates()["LaunchTemplates"]:
        versions = ec2.describe_launch_template_versions(
            LaunchTemplateId=template["LaunchTemplateId"], Versions=["$Latest"])
        for version in versions["LaunchTemplateVersions"]:
            encoded = version["LaunchTemplateData"].get("UserData", "")
            print(base64.b64decode(encoded).decode("utf-8", "replace"))


def interrupt(endpoint, queue, instance_ids):
    sqs = client(endpoint, "sqs")
    url = sqs.get_queue_url(QueueName=queue)["QueueUrl"]
    zones = {}
    for line in client(endpoint, "ec2").describe_instances(InstanceIds=instance_ids)[
            "Reservations"]:
        for instance in line["Instances"]:
            zones[instance["InstanceId"]] = instance["Placement"]["AvailabilityZone"]
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    for instance_id in instance_ids:
        body = {
            "version": "0",
            "id": str(uuid.uuid4()),
            "detail-type": "EC2 Spot Instance Interruption Warning",
            "source": "aws.ec2",
            "account": "123456789012",
            "time": now,
            "region": REGION,
            "resources": [f"arn:aws:ec2:{zones[instance_id]}:instance/{instance_id}"],
            "detail": {"instance-id": instance_id, "instance-action": "terminate"},
        }
        sqs.send_message(QueueUrl=url, MessageBody=json.dumps(body))


def fleets(endpoint):
    ec2 = client(endpoint, "ec2")
    for fleet in ec2.describe_fleets()["Fleets"]:
        launched = sum(len(group.get("InstanceIds", [])) for group in fleet.get("Instances", []))
        print(fleet["FleetId"], launched)


def main(argv):
    if len(argv) >= 3 and argv[2] == "instances":
        instances(argv[1])
    elif len(argv) >= 3 and argv[2] == "user-data":
        user_data(argv[1])
    elif len(argv) >= 3 and argv[2] == "fleets":
        fleets(argv[1])
    elif len(argv) >= 5 and argv[2] == "interrupt":
        interrupt(argv[1], argv[3], argv[4:])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
